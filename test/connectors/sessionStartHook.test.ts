import { Readable } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseHookInput, readHookStdin } from "../../src/connectors/readHookStdin.js";
import { nonRootReason, sessionStartHook } from "../../src/connectors/sessionStartHook.js";
import type { BackgroundRunDecision } from "../../src/workers/startBackgroundRun.js";
import { type TempHome, tempHome, writeSummary } from "../server/tempHome.js";

let temp: TempHome;
let started: Array<{ home: string }>;
const startRun = (options: { home: string }): BackgroundRunDecision => {
  started.push({ home: options.home });
  return { started: true, reason: "started" };
};

beforeEach(() => {
  temp = tempHome({ "memories.enabled": true });
  started = [];
  writeSummary(temp.home, { cwd: temp.project }, "- Run the linter before every commit.");
});

afterEach(() => temp.cleanup());

const claudeInput = () => ({
  session_id: "abc",
  transcript_path: "/x.jsonl",
  cwd: temp.project,
  hook_event_name: "SessionStart",
  source: "startup",
});

describe("session-start hook", () => {
  it("answers Claude Code with hookSpecificOutput.additionalContext and starts a background run", async () => {
    const result = await sessionStartHook({
      agent: "claude-code",
      home: temp.home,
      input: claudeInput(),
      env: temp.env,
      startRun,
    });
    const output = JSON.parse(result.stdout);
    expect(output.hookSpecificOutput.hookEventName).toBe("SessionStart");
    expect(output.hookSpecificOutput.additionalContext).toContain("## Memory Guidance");
    expect(output.hookSpecificOutput.additionalContext).toContain("Run the linter before every commit.");
    expect(result.stdout.endsWith("}\n")).toBe(true);
    expect(started).toEqual([{ home: temp.home }]);
  });

  it("prints plain text for other agents, taking the cwd from --cwd", async () => {
    const result = await sessionStartHook({
      agent: "codex",
      home: temp.home,
      cwd: temp.project,
      input: {},
      env: temp.env,
      startRun,
    });
    expect(result.stdout.startsWith("## Memory Guidance")).toBe(true);
    expect(result.injected).toBe(true);
  });

  it("prints nothing but still starts the pipeline when there is no memory for the project yet", async () => {
    const result = await sessionStartHook({
      agent: "claude-code",
      home: temp.home,
      cwd: temp.root,
      input: {},
      env: temp.env,
      startRun,
    });
    expect(result.stdout).toBe("");
    expect(started).toHaveLength(1);
  });

  it("does nothing when memories are disabled or inside cairn's own model runs", async () => {
    const disabled = await sessionStartHook({
      agent: "claude-code",
      home: temp.home,
      input: claudeInput(),
      env: { ...temp.env, CAIRN_MEMORIES_ENABLED: "false" },
      startRun,
    });
    expect(disabled).toMatchObject({ stdout: "", run: { started: false, reason: "memories.enabled is false" } });
    for (const flag of ["CAIRN_INTERNAL", "CAIRN_CONSOLIDATION"]) {
      const internal = await sessionStartHook({
        agent: "claude-code",
        home: temp.home,
        input: claudeInput(),
        env: { ...temp.env, [flag]: "1" },
        startRun,
      });
      expect(internal.stdout).toBe("");
    }
    expect(started).toHaveLength(0);
  });

  it("injects but starts no run for sub-agents, compactions and non-interactive runs", async () => {
    expect(nonRootReason({ source: "startup" }, {})).toBeUndefined();
    expect(nonRootReason({ agent_id: "a1" }, {})).toBe("a sub-agent session");
    expect(nonRootReason({ source: "compact" }, {})).toMatch(/compaction/);
    expect(nonRootReason({ source: "exec" }, {})).toBe("a exec session");
    expect(nonRootReason({}, { CLAUDE_CODE_ENTRYPOINT: "sdk-cli" })).toMatch(/non-interactive/);
    const result = await sessionStartHook({
      agent: "claude-code",
      home: temp.home,
      input: { ...claudeInput(), source: "compact" },
      env: temp.env,
      startRun,
    });
    expect(result.injected).toBe(true);
    expect(result.run.started).toBe(false);
    expect(started).toHaveLength(0);
  });
});

describe("hook stdin", () => {
  it("tolerates anything: JSON objects only, else {}", () => {
    expect(parseHookInput('{"cwd":"/x"}')).toEqual({ cwd: "/x" });
    for (const text of ["", "  ", "[1]", "null", "{broken", "42"]) expect(parseHookInput(text)).toEqual({});
  });

  it("reads a closed stream and gives up on one that stays open", async () => {
    expect(await readHookStdin(Readable.from([Buffer.from('{"source":"startup"}')]) as NodeJS.ReadStream)).toEqual({
      source: "startup",
    });
    const endless = new Readable({ read() {} }) as NodeJS.ReadStream;
    const before = Date.now();
    expect(await readHookStdin(endless, 50)).toEqual({});
    expect(Date.now() - before).toBeLessThan(1000);
  });
});
