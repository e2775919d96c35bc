import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Cairn } from "../../src/cairn.js";
import { acquireRunLock } from "../../src/workers/runLock.js";
import { formatCycle, pipelineBusy, runPipelineCycle } from "../../src/workers/runPipeline.js";
import { type TempHome, tempHome } from "../server/tempHome.js";

let temp: TempHome;
let cairn: Cairn;
const realHome = process.env.HOME;

beforeAll(() => {
  temp = tempHome();
  process.env.HOME = temp.root;
  cairn = new Cairn({ home: temp.home, env: temp.env });
});

afterAll(() => {
  cairn.close();
  process.env.HOME = realHome;
  temp.cleanup();
});

describe("runPipelineCycle", () => {
  it("runs collection, phase 1 and phase 2 and reports them on one line", async () => {
    const report = await runPipelineCycle(cairn);
    expect(report).toMatchObject({ outcome: "completed", scan: { files: 0 }, phase1: { claimed: 0 } });
    expect(report.phase2).toEqual(expect.any(String));
    const line = formatCycle(report);
    expect(line).toMatch(/pipeline completed in \d+\.\d s; scan 0 files \(0 new, 0 updated\); phase 1 0 extracted/);
    expect(line).not.toContain("\n");
    expect(report.hints).toBeUndefined();
  });

  it("with hints on, the cycle reports the hints pass (skipped offline, with the reason)", async () => {
    const withHints = new Cairn({ home: temp.home, env: temp.env, config: { "recall.hints.enabled": true } });
    try {
      const report = await runPipelineCycle(withHints);
      expect(report.hints).toMatchObject({ indexed: 0, skipped: expect.stringContaining("need an LLM") });
      expect(formatCycle(report)).toMatch(/; hints skipped: no model: prospective hints need an LLM/);
    } finally {
      withHints.close();
    }
  });

  it("skips while another run holds the lock", async () => {
    const lock = acquireRunLock(temp.home);
    try {
      const report = await runPipelineCycle(cairn);
      expect(report).toMatchObject({ outcome: "skipped" });
      expect(formatCycle(report)).toMatch(/pipeline skipped: another background run holds the lock$/);
    } finally {
      lock?.release();
    }
  });

  it("with skipIfBusy, skips while a phase lease is held by another process", async () => {
    cairn.storage.jobs.enqueue({ kind: "phase2", key: "global", force: true });
    const [lease] = cairn.storage.jobs.claim({ kind: "phase2" });
    expect(pipelineBusy(cairn)).toBe(true);
    const report = await runPipelineCycle(cairn, { skipIfBusy: true });
    expect(report).toMatchObject({ outcome: "skipped", reason: "a run is in progress in another process" });
    if (lease) cairn.storage.jobs.release(lease);
    expect(pipelineBusy(cairn)).toBe(false);
  });
});
