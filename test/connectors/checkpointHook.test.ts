import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { checkpointHook } from "../../src/connectors/checkpointHook.js";
import { sessionStartHook } from "../../src/connectors/sessionStartHook.js";
import { Storage } from "../../src/store/storage.js";
import type { BackgroundRunDecision } from "../../src/workers/startBackgroundRun.js";
import { type TempHome, tempHome, writeSummary } from "../server/tempHome.js";

const SECRET = "ghp_R7kW2pQ9xZ4mN8vB3cL6tY1hJ5gF0dS2aE7u";
const MINUTE = 60_000;
const noRun = (): BackgroundRunDecision => ({ started: false, reason: "test" });

let temp: TempHome;
let now: number;
let transcript: string;

/** A Claude Code transcript: two requests, a failing test run, a recall, a secret in the first prompt. */
function writeTranscript(sessionId: string, extra = 0): string {
  const file = join(temp.root, `${sessionId}.jsonl`);
  let n = 0;
  const line = (type: "user" | "assistant", content: unknown) => {
    n++;
    return JSON.stringify({
      type,
      uuid: `${sessionId}-u${n}`,
      parentUuid: n === 1 ? null : `${sessionId}-u${n - 1}`,
      sessionId,
      cwd: temp.project,
      timestamp: new Date(now - 60_000 + n * 1000).toISOString(),
      message: { role: type, content },
    });
  };
  const lines = [
    line("user", `Make the importer retry on 503 errors, the API token is ${SECRET}`),
    line("assistant", [
      { type: "tool_use", id: "t1", name: "mcp__cairn__recall", input: { query: "importer retry policy" } },
    ]),
    line("user", [{ type: "tool_result", tool_use_id: "t1", content: "1. [decision] retries use backoff" }]),
    line("assistant", [{ type: "tool_use", id: "t2", name: "Bash", input: { command: "npm test" } }]),
    line("user", [
      { type: "tool_result", tool_use_id: "t2", is_error: true, content: "FAIL test/importer.test.ts\nError: 503" },
    ]),
    line("user", "Also log each retry with its attempt number"),
    ...Array.from({ length: extra }, (_, i) => line("user", `Follow-up request number ${i + 1} about the importer`)),
  ];
  writeFileSync(file, `${lines.join("\n")}\n`);
  return file;
}

beforeEach(() => {
  temp = tempHome({ "memories.enabled": true });
  now = Date.parse("2026-06-01T10:00:00Z");
  transcript = writeTranscript("s1");
  writeSummary(temp.home, { cwd: temp.project }, "- Run the linter before every commit.");
});
afterEach(() => temp.cleanup());

const hook = (event: "pre-compact" | "session-end", input: Record<string, unknown>, agent = "claude-code") =>
  checkpointHook({ event, agent, home: temp.home, input, env: temp.env, now: () => now });

const start = (input: Record<string, unknown>) =>
  sessionStartHook({ agent: "claude-code", home: temp.home, input, env: temp.env, startRun: noRun, now: () => now });

function checkpointRows(): Array<Record<string, unknown>> {
  const storage = Storage.open(join(temp.home, "cairn.db"));
  try {
    return storage.db.prepare("SELECT * FROM session_checkpoints ORDER BY id").all() as Array<Record<string, unknown>>;
  } finally {
    storage.close();
  }
}

/** The test home's config with `workers.continuity` settings added. */
function continuity(settings: Record<string, unknown>): void {
  writeFileSync(
    join(temp.home, "config.yaml"),
    stringify({
      llm: { provider: "offline" },
      consolidation: { mode: "offline" },
      memories: { enabled: true },
      workers: { continuity: settings },
    }),
  );
}

const context = (stdout: string): string => JSON.parse(stdout).hookSpecificOutput.additionalContext as string;

describe("checkpoint hooks", () => {
  it("PreCompact writes a pre_compaction checkpoint from the transcript, with the secret redacted", async () => {
    const outcome = await hook("pre-compact", {
      session_id: "s1",
      transcript_path: transcript,
      cwd: temp.project,
      hook_event_name: "PreCompact",
      trigger: "manual",
    });
    expect(outcome).toEqual(expect.objectContaining({ written: true, merged: false }));
    const [row] = checkpointRows();
    expect(row?.trigger).toBe("pre_compaction");
    expect(row?.prompt_total).toBe(2);
    expect(String(row?.digest)).toContain("Also log each retry with its attempt number");
    expect(String(row?.digest)).toContain("`npm test` failed");
    expect(String(row?.memory_queries)).toContain("importer retry policy");
    expect(JSON.stringify(checkpointRows())).not.toContain("ghp_R7kW2pQ9");
  });

  it("SessionEnd within the flush window merges into the PreCompact checkpoint, later it adds a row", async () => {
    const input = { session_id: "s1", transcript_path: transcript, cwd: temp.project };
    await hook("pre-compact", input);
    now += 1000;
    transcript = writeTranscript("s1", 2);
    const merged = await hook("session-end", { ...input, reason: "clear" });
    expect(merged).toEqual(expect.objectContaining({ written: true, merged: true }));
    expect(checkpointRows()).toHaveLength(1);
    expect(checkpointRows()[0]).toEqual(expect.objectContaining({ trigger: "session_end", prompt_count: 4 }));
    now += MINUTE;
    expect(await hook("session-end", input)).toEqual(expect.objectContaining({ written: true, merged: false }));
    expect(checkpointRows()).toHaveLength(2);
  });

  it("writes nothing when memories or checkpoints are off, or inside cairn's own runs", async () => {
    const input = { session_id: "s1", transcript_path: transcript, cwd: temp.project };
    expect(
      await checkpointHook({
        event: "pre-compact",
        agent: "claude-code",
        home: temp.home,
        input,
        env: { ...temp.env, CAIRN_INTERNAL: "1" },
      }),
    ).toEqual({ written: false, reason: "inside one of cairn's own model runs" });
    continuity({ enabled: false });
    expect(await hook("pre-compact", input)).toEqual({ written: false, reason: "workers.continuity.enabled is false" });
    continuity({ enabled: true });
    expect(await hook("pre-compact", input)).toEqual(expect.objectContaining({ written: true }));
  });
});

describe("recovery at session start", () => {
  beforeEach(async () => {
    await hook("pre-compact", { session_id: "s1", transcript_path: transcript, cwd: temp.project });
    now += 5000;
  });

  it("after a compaction, the session's checkpoint follows the memory block, labelled as not verified", async () => {
    const result = await start({ session_id: "s1", cwd: temp.project, source: "compact" });
    const text = context(result.stdout);
    expect(result.recovered).toBe(true);
    expect(text).toContain("Run the linter before every commit.");
    expect(text).toContain("## Checkpoint of the work before this context was reset (not verified)");
    expect(text).toContain("Also log each retry with its attempt number");
    expect(text.indexOf("## Memory Guidance")).toBeLessThan(text.indexOf("## Checkpoint"));
    expect(text).not.toContain("ghp_R7kW2pQ9");
    expect(result.stdout.length).toBeLessThanOrEqual(10_000);
  });

  it("after a clear (a new session id), the project's latest checkpoint is given", async () => {
    const result = await start({ session_id: "s2", cwd: temp.project, source: "clear" });
    expect(context(result.stdout)).toContain("Also log each retry with its attempt number");
  });

  it("a fresh start or a resume gets no checkpoint", async () => {
    for (const source of ["startup", "resume"]) {
      const result = await start({ session_id: "s1", cwd: temp.project, source });
      expect(result.recovered).toBe(false);
      expect(context(result.stdout)).not.toContain("## Checkpoint");
    }
  });

  it("fits the digest within workers.continuity.recoveryBudgetChars", async () => {
    continuity({ recoveryBudgetChars: 300 });
    const result = await start({ session_id: "s1", cwd: temp.project, source: "compact" });
    const text = context(result.stdout);
    const block = text.slice(text.indexOf("## Checkpoint"));
    expect(block.length).toBeGreaterThan(0);
    expect(block.length).toBeLessThanOrEqual(300);
  });
});
