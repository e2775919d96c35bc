import { cpSync } from "node:fs";
import { join } from "node:path";
import { Writable } from "node:stream";
import { stripVTControlCharacters } from "node:util";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createProgress, type ProgressStream } from "../../src/cli/progress.js";
import { openCairn } from "../../src/index.js";
import type { WorkProgress } from "../../src/util/progress.js";
import { saidSession } from "../helpers/saidSession.js";
import { tempDir } from "../helpers/tempDir.js";

const FIXTURES = join(import.meta.dirname, "..", "fixtures", "claude-code", "projects");

/** A terminal as cli-progress sees one: `isTTY`, a width, and everything written kept. */
function fakeTerminal(isTTY = true): ProgressStream & { text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  }) as Writable & { isTTY: boolean; columns: number };
  stream.isTTY = isTTY;
  stream.columns = 120;
  return Object.assign(stream, { text: () => stripVTControlCharacters(chunks.join("")) });
}

/** A memory root holding a copy of the Claude Code fixtures, and the scan options that read them. */
function claudeSessions() {
  const sources = tempDir("cairn-progress-src-");
  cpSync(FIXTURES, sources, { recursive: true });
  return {
    home: tempDir("cairn-progress-"),
    scan: { overrides: { "claude-code": [sources] }, only: ["claude-code" as const] },
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("the pipeline reports its work as it does it", () => {
  it("scan: files found without a total, then each changed file read of all of them", async () => {
    const { home, scan } = claudeSessions();
    const cairn = openCairn({ home, env: {} });
    const events: WorkProgress[] = [];
    const report = await cairn.scan({ ...scan, onProgress: (event) => events.push({ ...event }) });
    cairn.close();
    const reading = events.filter((event) => event.step === "reading");
    const changed = report.files.filter((file) => file.read !== "none").length;
    expect(changed).toBeGreaterThanOrEqual(3);
    expect(reading.map((event) => event.done)).toEqual(Array.from({ length: changed + 1 }, (_, i) => i));
    expect(new Set(reading.map((event) => event.total))).toEqual(new Set([changed]));
    const finding = events.filter((event) => event.step === "finding");
    expect(finding[0]).toEqual({ step: "finding", unit: "files", done: 1 });
    expect(finding.at(-1)).toEqual({
      step: "finding",
      unit: "files",
      done: report.files.length,
      total: report.files.length,
    });
    // Found before any is read.
    expect(events.findIndex((event) => event.step === "reading")).toBeGreaterThan(events.indexOf(finding.at(-1)!));
  });

  it("extract: 0 of the sessions taken, then one more as each is extracted", async () => {
    let now = Date.parse("2026-10-01T10:00:00.000Z");
    const cairn = openCairn({
      home: tempDir("cairn-progress-"),
      env: {},
      clock: () => now,
      config: { "llm.provider": "offline", "memories.minRolloutIdleHours": 0 },
    });
    const advance = (ms: number) => {
      now += ms;
      return now;
    };
    for (const id of ["a", "b", "c"])
      saidSession(cairn, { id, cwd: "/srv/shop", said: `Use the ${id} queue for refunds.` }, advance);
    const events: WorkProgress[] = [];
    await cairn.extract({ onProgress: (event) => events.push({ ...event }) });
    cairn.close();
    expect(events).toEqual([0, 1, 2, 3].map((done) => ({ step: "extracting", unit: "sessions", done, total: 3 })));
  });

  it("embeddings: the memories embedded of those waiting, after each batch", async () => {
    const home = tempDir("cairn-progress-");
    const first = openCairn({ home, env: {}, config: { "embeddings.dimensions": 256 } });
    await first.remember(
      Array.from({ length: 20 }, (_, i) => ({ content: `Build target ${i} writes to out/${i}`, scope: "global" })),
    );
    first.close();
    const second = openCairn({ home, env: {}, config: { "embeddings.dimensions": 128 } });
    const events: WorkProgress[] = [];
    expect(await second.refreshEmbeddings(undefined, (event) => events.push({ ...event }))).toBe(20);
    second.close();
    expect(events.map((event) => `${event.done}/${event.total}`)).toEqual(["0/20", "8/20", "16/20", "20/20"]);
    expect(events.every((event) => event.step === "embedding" && event.unit === "memories")).toBe(true);
  });
});

describe("the progress bar", () => {
  it("on a terminal moves with a real scan: intermediate counts of all, and the rate", async () => {
    const { home, scan } = claudeSessions();
    const terminal = fakeTerminal();
    // Frames are drawn at most every 200 ms: each file here takes a second of the bar's clock.
    vi.useFakeTimers({ toFake: ["Date"] });
    const view = createProgress({ stream: terminal, env: {} });
    const cairn = openCairn({ home, env: {} });
    const report = await cairn.scan({
      ...scan,
      onProgress: (event) => {
        vi.setSystemTime(Date.now() + 1000);
        view.report(event);
      },
    });
    view.stop();
    cairn.close();
    const total = report.files.filter((file) => file.read !== "none").length;
    const text = terminal.text();
    expect(text).toMatch(new RegExp(`reading \\[[^\\]]+\\] 1/${total} files`));
    expect(text).toMatch(new RegExp(`reading \\[[^\\]]+\\] 2/${total} files, 1\\.0 files/s, \\d+ s left`));
    expect(text).toContain(`finding ${report.files.length - 1} files`);
  });

  it("draws nothing in a pipe, with --json, in CI or on a dumb terminal", () => {
    const event: WorkProgress = { step: "reading", unit: "files", done: 1, total: 2 };
    for (const [options, why] of [
      [{ stream: fakeTerminal(false), env: {} }, "pipe"],
      [{ json: true, stream: fakeTerminal(), env: {} }, "--json"],
      [{ stream: fakeTerminal(), env: { CI: "true" } }, "CI"],
      [{ stream: fakeTerminal(), env: { TERM: "dumb" } }, "dumb terminal"],
    ] as const) {
      const view = createProgress(options);
      view.report(event);
      view.stop();
      expect(options.stream.text(), why).toBe("");
    }
  });
});
