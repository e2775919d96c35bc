import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { Cairn } from "../../src/cairn.js";
import { CYCLE_STEPS, type CycleHost, runCycle } from "../../src/pipeline/cycle.js";
import { runPipelineCycle } from "../../src/workers/runPipeline.js";
import { type TempHome, tempHome } from "../server/tempHome.js";

const STEP_METHODS = [
  "scan",
  "maintain",
  "extract",
  "revise",
  "consolidate",
  "refreshEmbeddings",
  "generateHints",
  "classifyStructure",
] as const;

/** A host whose steps only record that they ran; `failAt` makes that step throw. */
function recordingHost(failAt?: (typeof STEP_METHODS)[number]) {
  const calls: string[] = [];
  let released = 0;
  const method =
    (name: (typeof STEP_METHODS)[number], value: unknown) =>
    async (..._args: unknown[]) => {
      calls.push(name);
      if (name === failAt) throw new Error(`${name} broke`);
      return value;
    };
  const host = {
    scan: method("scan", { files: [], totals: { imported: 0, updated: 0 } }),
    extract: method("extract", { jobs: [] }),
    revise: method("revise", { superseded: [], flagged: [], done: 0, warnings: [] }),
    consolidate: method("consolidate", { outcome: "clean", error: null }),
    refreshEmbeddings: method("refreshEmbeddings", 0),
    maintain: method("maintain", { done: [], warnings: [] }),
    generateHints: method("generateHints", { indexed: 0, failed: 0, pending: 0 }),
    classifyStructure: method("classifyStructure", { outcome: "skipped", waiting: 0 }),
    releaseLeases: () => {
      released += 1;
      return 0;
    },
  } as unknown as CycleHost;
  return { host, calls, released: () => released };
}

describe("runCycle", () => {
  it("runs scan, maintenance, extract, revise, consolidate, embeddings, hints and structural in that order", async () => {
    const { host, calls, released } = recordingHost();
    const done: string[] = [];
    const reports = await runCycle(host, { onStepDone: (step) => done.push(step.name) });
    expect(calls).toEqual([...STEP_METHODS]);
    expect(done).toEqual(CYCLE_STEPS.map((step) => step.name));
    expect(reports.embeddings).toBe(0);
    expect(released()).toBe(0);
  });

  it("stops at a failing step, hands back the leases, and has reported the steps before it", async () => {
    const { host, calls, released } = recordingHost("consolidate");
    const done: string[] = [];
    await expect(runCycle(host, { onStepDone: (step) => done.push(step.name) })).rejects.toThrow("consolidate broke");
    expect(calls).toEqual(["scan", "maintain", "extract", "revise", "consolidate"]);
    expect(done).toEqual(["scan", "maintenance", "extract", "revise"]);
    expect(released()).toBe(1);
  });
});

describe("cairn run and the background cycle", () => {
  let temp: TempHome;
  const realHome = process.env.HOME;

  beforeAll(() => {
    temp = tempHome();
    process.env.HOME = temp.root;
  });

  afterAll(() => {
    process.env.HOME = realHome;
    temp.cleanup();
  });

  /** The step methods a call made on a real Cairn, in order. */
  async function stepsOf(
    call: (cairn: Cairn) => Promise<unknown>,
    config?: Record<string, unknown>,
  ): Promise<string[]> {
    const cairn = new Cairn({ home: temp.home, env: temp.env, ...(config ? { config } : {}) });
    const calls: string[] = [];
    for (const name of STEP_METHODS) {
      const original = cairn[name].bind(cairn) as (...args: unknown[]) => Promise<unknown>;
      vi.spyOn(cairn, name).mockImplementation(((...args: unknown[]) => {
        calls.push(name);
        return original(...args);
      }) as never);
    }
    try {
      await call(cairn);
    } finally {
      cairn.close();
    }
    return calls;
  }

  it("take the same steps in the same order", async () => {
    const run = await stepsOf((cairn) => cairn.run());
    const daemon = await stepsOf((cairn) => runPipelineCycle(cairn));
    const background = await stepsOf((cairn) => runPipelineCycle(cairn, { skipIfBusy: true }));
    expect(run).toEqual([...STEP_METHODS]);
    expect(daemon).toEqual(run);
    expect(background).toEqual(run);
  });

  it("leave maintenance out of the scheduled cycle only, while pipeline.autonomousFrozen is true", async () => {
    const frozen = { "pipeline.autonomousFrozen": true };
    const run = await stepsOf((cairn) => cairn.run(), frozen);
    const daemon = await stepsOf((cairn) => runPipelineCycle(cairn), frozen);
    expect(run).toContain("maintain");
    expect(daemon).toEqual(run.filter((step) => step !== "maintain"));
  });
});
