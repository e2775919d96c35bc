import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CLAUDE_TOOL_LESS_ARGS, ClaudeCliProvider } from "../../src/providers/llm/claudeCli.js";
import { ProviderError } from "../../src/providers/llm/types.js";
import { type FakeCli, type FakeCliBehaviour, installFakeCli } from "../helpers/fakeCli.js";
import { waitUntilGone } from "./processes.js";

const resultJson = (fields: Record<string, unknown>) =>
  JSON.stringify({
    type: "result",
    subtype: "success",
    is_error: false,
    duration_ms: 1200,
    num_turns: 1,
    result: "hello",
    session_id: "00000000-0000-0000-0000-000000000000",
    usage: { input_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 5, output_tokens: 3 },
    ...fields,
  });

// Fake executables are extensionless Node scripts, which Windows cannot run from PATH.
describe.skipIf(process.platform === "win32")("ClaudeCliProvider", () => {
  let fake: FakeCli | undefined;
  afterEach(() => fake?.cleanup());

  const setup = (behaviour: FakeCliBehaviour, model?: string) => {
    fake = installFakeCli("claude", behaviour);
    return new ClaudeCliProvider({ env: fake.env, timeoutMs: 10_000, model });
  };

  it("runs claude -p with the prompt on stdin and reads the JSON result", async () => {
    const provider = setup({ kind: "answer", stdout: resultJson({}) });
    const result = await provider.generate({ system: "Be brief.", prompt: "hi" });
    expect(result).toEqual({
      text: "hello",
      usage: { inputTokens: 15, outputTokens: 3 },
      provider: "claude-cli",
      model: "haiku",
      warnings: [],
    });
    const [call] = fake!.calls();
    expect(call?.argv).toEqual([
      "-p",
      "--output-format",
      "json",
      "--model",
      "haiku",
      "--tools",
      "",
      "--strict-mcp-config",
      "--mcp-config",
      '{"mcpServers":{}}',
      "--no-session-persistence",
      "--settings",
      '{"disableAllHooks":true}',
      "--append-system-prompt",
      "Be brief.",
    ]);
    expect(call?.stdin).toBe("hi");
    expect(call?.internal).toBe("1");
    // It ran in a private temp dir, removed afterwards.
    expect(path.dirname(call!.cwd)).toBe(await realTmpdir());
    expect(existsSync(call!.cwd)).toBe(false);
  });

  it("asks for schema JSON in the system prompt, unwraps a code fence and warns", async () => {
    const provider = setup({ kind: "answer", stdout: resultJson({ result: '```json\n{"slug":"x"}\n```' }) }, "sonnet");
    const result = await provider.generate({
      system: "Extract.",
      prompt: "session",
      jsonSchema: { name: "stage1", schema: { type: "object" } },
      temperature: 0,
    });
    expect(result.text).toBe('{"slug":"x"}');
    expect(result.warnings).toEqual([
      "claude-cli: temperature is not supported and was ignored",
      "claude-cli: no native JSON-schema mode; the schema was given as an instruction",
    ]);
    const argv = fake!.calls()[0]!.argv;
    expect(argv.slice(0, 5)).toEqual(["-p", "--output-format", "json", "--model", "sonnet"]);
    expect(argv.at(-1)).toBe(
      'Extract.\n\nAnswer with only one JSON object (stage1) that matches this JSON Schema.\nNo prose before or after it, no code fence.\n{"type":"object"}',
    );
  });

  it("moves a very long system prompt onto stdin", async () => {
    const provider = setup({ kind: "answer", stdout: resultJson({}) });
    const system = "rule. ".repeat(20_000);
    await provider.generate({ system, prompt: "session" });
    const [call] = fake!.calls();
    expect(call?.argv).not.toContain("--append-system-prompt");
    expect(call?.stdin).toBe(`${system}\n\nsession`);
  });

  it("runs without tools, MCP servers or hooks, whatever else the caller adds", async () => {
    fake = installFakeCli("claude", { kind: "answer", stdout: resultJson({}) });
    const provider = new ClaudeCliProvider({ env: fake.env, timeoutMs: 10_000, extraArgs: ["--verbose"] });
    await provider.generate({ system: "", prompt: "p" });
    const argv = fake.calls()[0]!.argv;
    // Every flag with its value, in order, ahead of the caller's own.
    const at = argv.indexOf("--tools");
    expect(argv.slice(at, at + CLAUDE_TOOL_LESS_ARGS.length)).toEqual([...CLAUDE_TOOL_LESS_ARGS]);
    expect(argv.at(-1)).toBe("--verbose");
    expect(JSON.parse(argv[argv.indexOf("--mcp-config") + 1]!)).toEqual({ mcpServers: {} });
    expect(JSON.parse(argv[argv.indexOf("--settings") + 1]!)).toEqual({ disableAllHooks: true });
  });

  it("a claude too old for those flags is a config error that says to update, not a retry", async () => {
    const provider = setup({ kind: "exit", exitCode: 1, stderr: "error: unknown option '--tools'\n" });
    const error = await provider.generate({ system: "", prompt: "p" }).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "config", isRetryable: false, exitCode: 1, provider: "claude-cli" });
    expect((error as Error).message).toBe(
      "claude-cli: this claude does not know --tools, which cairn needs to run it without tools, MCP servers or hooks; update Claude Code (`claude update`) or choose another provider (`cairn config set llm.provider ...`)",
    );
  });

  it("a non-zero exit is an exit error with the code and the start of stderr", async () => {
    const provider = setup({ kind: "exit", exitCode: 2, stderr: `Error: not logged in\n${"detail ".repeat(60)}` });
    const error = await provider.generate({ system: "", prompt: "p" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: "exit", exitCode: 2, isRetryable: true, provider: "claude-cli" });
    const message = (error as Error).message;
    expect(message.startsWith("claude-cli: exited with code 2: Error: not logged in detail")).toBe(true);
    expect(message.length).toBe("claude-cli: exited with code 2: ".length + 200);
  });

  it("an error result on stdout explains the failure when stderr is empty", async () => {
    const stdout = resultJson({ is_error: true, result: "API Error: 529 overloaded" });
    const provider = setup({ kind: "exit", exitCode: 1, stdout });
    await expect(provider.generate({ system: "", prompt: "p" })).rejects.toMatchObject({
      kind: "exit",
      exitCode: 1,
      message: "claude-cli: exited with code 1: API Error: 529 overloaded",
    });
  });

  it("an error result with exit code 0 is still an error", async () => {
    const provider = setup({
      kind: "answer",
      stdout: resultJson({ is_error: true, result: "Credit balance is too low" }),
    });
    await expect(provider.generate({ system: "", prompt: "p" })).rejects.toMatchObject({
      kind: "exit",
      message: "claude-cli: reported an error: Credit balance is too low",
    });
  });

  it("output that is not a JSON result is malformed", async () => {
    const provider = setup({ kind: "answer", stdout: "Welcome to Claude Code!" });
    await expect(provider.generate({ system: "", prompt: "p" })).rejects.toMatchObject({
      kind: "malformed",
      isRetryable: true,
    });
  });

  it("a hanging CLI times out and is stopped", async () => {
    const provider = setup({ kind: "hang" });
    // Long enough for the fake's Node to start on a loaded machine, so that there is a process to stop.
    const error = await provider.generate({ system: "", prompt: "p", timeoutMs: 1_500 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "timeout", isRetryable: true });
    expect((error as Error).message).toBe("claude-cli: timed out after 1500 ms; the process was stopped");
    expect(fake!.pids()).toHaveLength(1);
    await waitUntilGone(fake!.pids()[0]!);
  });

  it("is available only when claude is on PATH; missing it is a config error", async () => {
    const provider = setup({ kind: "answer", stdout: resultJson({}) });
    expect(await provider.available()).toBe(true);
    const missing = new ClaudeCliProvider({ env: { PATH: path.join(fake!.dir, "empty") } });
    expect(await missing.available()).toBe(false);
    await expect(missing.generate({ system: "", prompt: "p" })).rejects.toMatchObject({
      kind: "config",
      isRetryable: false,
      message: "claude-cli: 'claude' was not found on PATH",
    });
  });
});

async function realTmpdir(): Promise<string> {
  const { realpath } = await import("node:fs/promises");
  return realpath(os.tmpdir());
}
