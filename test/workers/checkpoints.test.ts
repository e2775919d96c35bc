import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Collector } from "../../src/collection/collector.js";
import { workersConfigSchema } from "../../src/config/workersConfig.js";
import type { SessionItem } from "../../src/sources/types.js";
import type { Storage } from "../../src/store/storage.js";
import { withWriteTx } from "../../src/store/tx.js";
import { captureCheckpoint } from "../../src/workers/checkpoints/captureCheckpoint.js";
import {
  CHECKPOINTS_WORKER,
  checkpointWorker,
  periodicCheckpoints,
} from "../../src/workers/checkpoints/checkpointWorker.js";
import type { SessionSnapshot } from "../../src/workers/checkpoints/sessionSnapshot.js";
import { writeCheckpoint } from "../../src/workers/checkpoints/writeCheckpoint.js";
import { WorkerSet } from "../../src/workers/workerSet.js";
import { memoryStorage } from "../helpers/store.js";

const SECRET = "ghp_R7kW2pQ9xZ4mN8vB3cL6tY1hJ5gF0dS2aE7u";
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

let now: number;
const clock = () => now;
let storage: Storage;
const settings = () => workersConfigSchema().parse({}).continuity;

beforeEach(() => {
  now = Date.parse("2026-06-01T10:00:00Z");
  storage = memoryStorage(clock);
});
afterEach(() => storage.close());

type Item = Partial<SessionItem> & Pick<SessionItem, "role" | "text">;

/** Stores an open interactive session (not ended) with these items. */
function openSession(id: string, items: Item[], updatedAt = now): void {
  const collector = new Collector(storage.sessions, storage.items, {
    maxUnprocessedItems: 1000,
    clock,
    projectKeyOf: () => "path:/work/project",
  });
  withWriteTx(storage.db, () =>
    collector.apply(
      {
        session: {
          id,
          agent: "claude-code",
          kind: "interactive",
          cwd: "/work/project",
          startedAt: updatedAt - 1000,
          updatedAt,
        },
        items: items.map((item, index) => ({ key: `L${index + 1}`, origin: { file: "t", line: index + 1 }, ...item })),
      },
      "t",
    ),
  );
}

function prompts(n: number, from = 1): Item[] {
  return Array.from({ length: n }, (_, i) => [
    { role: "user" as const, text: `Please look at module number ${from + i} of the parser` },
    { role: "assistant" as const, text: `Looked at module ${from + i}.` },
  ]).flat();
}

const workSession: Item[] = [
  { role: "user", text: "Fix the failing date parser tests in src/date.ts" },
  {
    role: "tool_call",
    tool: "mcp__cairn__recall",
    callId: "r1",
    text: JSON.stringify({ query: "date parser timezone" }),
  },
  { role: "tool_result", tool: "mcp__cairn__recall", callId: "r1", text: "1. [fact] use Temporal" },
  { role: "tool_call", tool: "Edit", callId: "e1", text: JSON.stringify({ file_path: "/work/project/src/date.ts" }) },
  { role: "tool_result", tool: "Edit", callId: "e1", text: "The file /work/project/src/date.ts has been updated." },
  { role: "tool_call", tool: "Bash", callId: "b1", text: JSON.stringify({ command: "npm test" }) },
  {
    role: "tool_result",
    tool: "Bash",
    callId: "b1",
    isError: true,
    text: "FAIL src/date.test.ts\nError: expected 3 got 4",
  },
  {
    role: "tool_call",
    tool: "mcp__cairn__remember",
    callId: "m1",
    text: JSON.stringify({ text: "The date tests need TZ=UTC" }),
  },
  { role: "tool_result", tool: "mcp__cairn__remember", callId: "m1", text: "Remembered (id 4)." },
  { role: "user", text: "Now also update the changelog" },
];

function snapshot(queries: string[], remembers: string[], promptTotal: number): SessionSnapshot {
  return {
    promptTotal,
    memoryQueries: queries,
    recentRemembers: remembers,
    state: { focus: ["work"], commands: [], files: [], openWork: null, git: "", outcome: null },
  };
}

const capture = (snap: SessionSnapshot, trigger: "periodic" | "pre_compaction" = "periodic") => ({
  sessionKey: "s1",
  agent: "claude-code",
  cwd: "/work/project",
  projectKey: "path:/work/project",
  trigger,
  snapshot: snap,
});

describe("session snapshot", () => {
  it("reads focus, prompts, commands with outcomes, files, memory queries and remembers from the items", async () => {
    openSession("s1", workSession);
    const outcome = await captureCheckpoint(
      storage,
      settings(),
      { trigger: "explicit", sessionKey: "s1", exclude: [] },
      now,
    );
    expect(outcome.written).toBe(true);
    if (!outcome.written) return;
    const { record } = outcome;
    expect(record.trigger).toBe("explicit");
    expect(record.promptTotal).toBe(2);
    expect(record.state.focus).toEqual([
      "Fix the failing date parser tests in src/date.ts",
      "Now also update the changelog",
    ]);
    expect(record.state.commands).toEqual([expect.objectContaining({ command: "npm test", outcome: "failed" })]);
    expect(record.state.files.join(" ")).toContain("src/date.ts");
    expect(record.memoryQueries).toEqual(["date parser timezone"]);
    expect(record.recentRemembers).toEqual(["The date tests need TZ=UTC"]);
    expect(record.digest).toContain("`npm test` failed");
    expect(record.digest).toContain('Memory asked: "date parser timezone"');
  });
});

describe("checkpoint flush", () => {
  it("merges two triggers within the flush window into one row: lists united under the caps, prompt counts summed", () => {
    const queries = (from: number, n: number) => Array.from({ length: n }, (_, i) => `query ${from + i}`);
    const first = writeCheckpoint(storage, capture(snapshot(queries(0, 15), queries(100, 8), 4)), settings(), now);
    now += settings().flushDebounceMs - 1;
    const second = writeCheckpoint(
      storage,
      capture(snapshot(queries(10, 15), queries(200, 8), 7), "pre_compaction"),
      settings(),
      now,
    );
    expect(second.merged).toBe(true);
    expect(second.id).toBe(first.id);
    const rows = storage.checkpoints.list("s1");
    expect(rows).toHaveLength(1);
    const [row] = rows;
    // 25 distinct queries, the latest 20 kept; 16 remembers, the latest 10.
    expect(row?.memoryQueries).toHaveLength(20);
    expect(row?.memoryQueries.at(-1)).toBe("query 24");
    expect(row?.memoryQueries[0]).toBe("query 5");
    expect(row?.recentRemembers).toHaveLength(10);
    expect(row?.recentRemembers.at(-1)).toBe("query 207");
    // 4 prompts, then 3 more: summed to the 7 the two cover; the weightier trigger names it.
    expect(row?.promptCount).toBe(7);
    expect(row?.trigger).toBe("pre_compaction");
  });

  it("writes a new row once the window has passed, each covering its own prompts", () => {
    writeCheckpoint(storage, capture(snapshot([], [], 4)), settings(), now);
    now += settings().flushDebounceMs;
    const second = writeCheckpoint(storage, capture(snapshot([], [], 9)), settings(), now);
    expect(second.merged).toBe(false);
    expect(storage.checkpoints.list("s1").map((row) => row.promptCount)).toEqual([4, 5]);
  });

  it("keeps a session's newest maxCheckpointsPerSession checkpoints, deleting the oldest", () => {
    const capped = { ...settings(), maxCheckpointsPerSession: 3 };
    for (let i = 1; i <= 5; i++) {
      now += MINUTE;
      writeCheckpoint(storage, capture(snapshot([`q${i}`], [], i)), capped, now);
    }
    const rows = storage.checkpoints.list("s1");
    expect(rows.map((row) => row.memoryQueries[0])).toEqual(["q3", "q4", "q5"]);
  });

  it("redacts a secret at the write, whatever the caller hands in", () => {
    writeCheckpoint(
      storage,
      capture({
        ...snapshot([`token ${SECRET}`], [`remember ${SECRET}`], 1),
        state: { focus: [`deploy with ${SECRET}`], commands: [], files: [], openWork: null, git: "", outcome: null },
      }),
      settings(),
      now,
    );
    const raw = storage.db.prepare("SELECT * FROM session_checkpoints").all();
    expect(JSON.stringify(raw)).not.toContain("ghp_R7kW2pQ9");
  });

  it("redacts a secret read from a transcript file a hook names", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cairn-ckpt-"));
    try {
      const transcript = join(dir, "s9.jsonl");
      const line = (n: number, type: string, content: unknown) =>
        JSON.stringify({
          type,
          uuid: `u${n}`,
          parentUuid: n === 1 ? null : `u${n - 1}`,
          sessionId: "s9",
          cwd: "/work/project",
          timestamp: new Date(now - 10_000 + n).toISOString(),
          message: { role: type, content },
        });
      writeFileSync(
        transcript,
        `${[
          line(1, "user", `Deploy the app with the token ${SECRET} please`),
          line(2, "assistant", [{ type: "text", text: "Deploying." }]),
        ].join("\n")}\n`,
      );
      const outcome = await captureCheckpoint(
        storage,
        settings(),
        { trigger: "pre_compaction", sessionKey: "s9", agent: "claude-code", transcriptPath: transcript, exclude: [] },
        now,
      );
      expect(outcome.written).toBe(true);
      const raw = JSON.stringify(storage.db.prepare("SELECT * FROM session_checkpoints").all());
      expect(raw).toContain("Deploy the app");
      expect(raw).not.toContain("ghp_R7kW2pQ9");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("excluded projects", () => {
  it("get no checkpoint from any door: a hook's transcript is not read, a stored session is not captured", async () => {
    openSession("s1", prompts(12));
    const exclude = ["/work/project"];
    const stored = await captureCheckpoint(
      storage,
      settings(),
      { trigger: "explicit", sessionKey: "s1", exclude },
      now,
    );
    expect(stored).toEqual({
      written: false,
      reason: "the session's project is excluded by memories.exclude ('/work/project')",
    });
    // The transcript named by a hook of an excluded folder: refused before the file is opened.
    const hooked = await captureCheckpoint(
      storage,
      settings(),
      {
        trigger: "pre_compaction",
        sessionKey: "s2",
        agent: "claude-code",
        cwd: "/work/project",
        transcriptPath: "/nonexistent/t.jsonl",
        exclude,
      },
      now,
    );
    expect(hooked).toMatchObject({ written: false, reason: expect.stringMatching(/excluded by memories.exclude/) });
    // Twelve prompts: due by count, not by time.
    expect(await periodicCheckpoints(storage, settings(), clock, exclude)).toBe(0);
    expect(await periodicCheckpoints(storage, settings(), clock, [])).toBe(1);
    expect(storage.db.prepare("SELECT count(*) AS n FROM session_checkpoints").get()).toEqual({ n: 1 });
  });
});

describe("checkpoints worker", () => {
  const host = (config = {}) => ({
    storage,
    config: { workers: workersConfigSchema().parse({ continuity: config }), memories: { exclude: [] } } as never,
    clock,
    log: () => {},
    embeddingModel: () => null,
    refreshEmbeddings: async () => 0,
  });
  const workers = (config = {}) =>
    new WorkerSet(host(config) as never, { factories: [[CHECKPOINTS_WORKER, checkpointWorker]] });

  it("writes a periodic checkpoint once promptInterval prompts are new, and not before", async () => {
    openSession("s1", prompts(3));
    const set = workers({ promptInterval: 5 });
    await set.tickAll();
    expect(storage.checkpoints.count()).toBe(0);
    now += 2 * MINUTE;
    openSession("s1", prompts(6), now);
    const cycle = await workers({ promptInterval: 5 }).tickAll();
    expect(cycle[CHECKPOINTS_WORKER]?.processed).toBe(1);
    const [row] = storage.checkpoints.list("s1");
    expect(row?.trigger).toBe("periodic");
    expect(row?.promptTotal).toBe(6);
  });

  it("counts prompts as the snapshot does: harness text and bare continuations do not make a checkpoint due", async () => {
    openSession("s1", [
      ...prompts(3),
      { role: "user", text: "[Request interrupted by user]" },
      { role: "user", text: "continue" },
    ]);
    await workers({ promptInterval: 5 }).tickAll();
    expect(storage.checkpoints.count()).toBe(0);
  });

  it("writes a periodic checkpoint after timeIntervalMs with new activity, even below promptInterval", async () => {
    openSession("s1", prompts(1));
    now += 16 * MINUTE;
    openSession("s1", prompts(2), now);
    await workers().tickAll();
    expect(storage.checkpoints.list("s1")).toHaveLength(1);
  });

  it("prunes checkpoints older than retentionDays on its periodic job, by the injected clock", async () => {
    writeCheckpoint(storage, capture(snapshot(["old"], [], 1)), settings(), now);
    now += 3 * DAY;
    writeCheckpoint(storage, { ...capture(snapshot(["new"], [], 1)), sessionKey: "s2" }, settings(), now);
    now += 5 * DAY; // the first is 8 days old, the second 5: the default window is 7 days
    await workers().tickAll();
    const left = storage.checkpoints.list();
    expect(left.map((row) => row.memoryQueries[0])).toEqual(["new"]);
    expect(storage.jobs.stats().checkpoint_prune).toEqual({ succeeded: 1 });
  });

  it("does not run when checkpoints are off", async () => {
    openSession("s1", prompts(20));
    const set = workers({ enabled: false });
    expect(set.start()[0]).toEqual(expect.objectContaining({ started: false }));
    await set.tickAll();
    expect(storage.checkpoints.count()).toBe(0);
  });
});
