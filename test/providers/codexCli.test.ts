import { existsSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CodexCliProvider, readCodexEvents } from "../../src/providers/llm/codexCli.js";
import { type FakeCli, type FakeCliBehaviour, installFakeCli } from "../helpers/fakeCli.js";
import { waitUntilGone } from "./processes.js";

const events = [
  { type: "thread.started", thread_id: "t-1" },
  { type: "turn.started" },
  { type: "item.completed", item: { id: "i0", type: "agent_message", text: '{"slug":"fix-ci"}' } },
  { type: "turn.completed", usage: { input_tokens: 1200, cached_input_tokens: 1000, output_tokens: 40 } },
]
  .map((event) => JSON.stringify(event))
  .join("\n");

const schema = {
  type: "object",
  properties: { slug: { type: "string" } },
  required: ["slug"],
  additionalProperties: false,
};

// Fake executables are extensionless Node scripts, which Windows cannot run from PATH.
describe.skipIf(process.platform === "win32")("CodexCliProvider", () => {
  let fake: FakeCli | undefined;
  afterEach(() => fake?.cleanup());

  const setup = (behaviour: FakeCliBehaviour, model?: string) => {
    fake = installFakeCli("codex", behaviour);
    return new CodexCliProvider({ env: fake.env, timeoutMs: 10_000, model });
  };

  /** argv with the per-call temp paths replaced, so it can be compared exactly. */
  const normalizedArgv = () => {
    const call = fake!.calls()[0]!;
    return call.argv.map((arg) => (arg.startsWith(call.cwd) ? `<tmp>/${path.basename(arg)}` : arg));
  };

  it("runs codex exec with the schema file and reads the last message and usage", async () => {
    const provider = setup({ kind: "answer", stdout: events, lastMessage: '{"slug":"fix-ci"}\n' });
    const result = await provider.generate({
      system: "Extract.",
      prompt: "the session",
      jsonSchema: { name: "stage1", schema },
    });
    expect(result).toEqual({
      text: '{"slug":"fix-ci"}',
      usage: { inputTokens: 1200, outputTokens: 40 },
      provider: "codex-cli",
      model: "codex-default",
      warnings: [],
    });
    const call = fake!.calls()[0]!;
    expect(normalizedArgv()).toEqual([
      "exec",
      "--skip-git-repo-check",
      "--sandbox",
      "read-only",
      // No shell: the transcripts it reads must not get it to read this machine's files.
      "-c",
      "features.shell_tool=false",
      "--json",
      "--output-schema",
      "<tmp>/output-schema.json",
      "--output-last-message",
      "<tmp>/last-message.txt",
      "-",
    ]);
    expect(JSON.parse(call.outputSchema!)).toEqual(schema);
    expect(call.stdin).toBe("Extract.\n\nthe session");
    expect(call.internal).toBe("1");
    expect(existsSync(call.cwd)).toBe(false);
  });

  it("passes -m for a configured model and warns about options codex cannot take", async () => {
    const provider = setup({ kind: "answer", lastMessage: "plain answer" }, "gpt-5.4-mini");
    const result = await provider.generate({ system: "", prompt: "p", maxOutputTokens: 10 });
    expect(result.text).toBe("plain answer");
    expect(result.usage).toEqual({});
    expect(result.model).toBe("gpt-5.4-mini");
    expect(result.warnings).toEqual(["codex-cli: maxOutputTokens is not supported and was ignored"]);
    expect(normalizedArgv()).toEqual([
      "exec",
      "--skip-git-repo-check",
      "--sandbox",
      "read-only",
      "-c",
      "features.shell_tool=false",
      "--json",
      "-m",
      "gpt-5.4-mini",
      "--output-last-message",
      "<tmp>/last-message.txt",
      "-",
    ]);
    expect(fake!.calls()[0]!.stdin).toBe("p");
  });

  it("a non-zero exit reports the failed turn's message when stderr is empty", async () => {
    const stdout = [
      JSON.stringify({ type: "turn.started" }),
      JSON.stringify({ type: "turn.failed", error: { message: "You've hit your usage limit." } }),
    ].join("\n");
    const provider = setup({ kind: "exit", exitCode: 1, stdout });
    await expect(provider.generate({ system: "", prompt: "p" })).rejects.toMatchObject({
      kind: "exit",
      exitCode: 1,
      isRetryable: true,
      message: "codex-cli: exited with code 1: You've hit your usage limit.",
    });
  });

  it("a non-zero exit reports the start of stderr", async () => {
    const provider = setup({ kind: "exit", exitCode: 3, stderr: "Error: unexpected argument '--bogus' found\n" });
    await expect(provider.generate({ system: "", prompt: "p" })).rejects.toMatchObject({
      kind: "exit",
      exitCode: 3,
      message: "codex-cli: exited with code 3: Error: unexpected argument '--bogus' found",
    });
  });

  it("no last-message file is malformed", async () => {
    const provider = setup({ kind: "answer", stdout: events });
    await expect(provider.generate({ system: "", prompt: "p" })).rejects.toMatchObject({
      kind: "malformed",
      message: "codex-cli: codex wrote no last message",
    });
  });

  it("a hanging codex times out, is stopped, and its temp dir is removed", async () => {
    const provider = setup({ kind: "hang" });
    await expect(provider.generate({ system: "", prompt: "p", timeoutMs: 1_500 })).rejects.toMatchObject({
      kind: "timeout",
      isRetryable: true,
    });
    expect(fake!.pids()).toHaveLength(1);
    await waitUntilGone(fake!.pids()[0]!);
    const cwd = fake!.calls()[0]?.cwd;
    if (cwd !== undefined) expect(existsSync(cwd)).toBe(false);
  });

  it("is available only when codex is on PATH", async () => {
    const provider = setup({ kind: "answer" });
    expect(await provider.available()).toBe(true);
    expect(await new CodexCliProvider({ env: { PATH: "" } }).available()).toBe(false);
  });
});

describe("readCodexEvents", () => {
  it("keeps usage unknown without a completed turn and skips lines that are not JSON", () => {
    expect(readCodexEvents("progress...\n{torn")).toEqual({ usage: {}, error: undefined });
    expect(readCodexEvents(JSON.stringify({ type: "error", message: "stream disconnected" }))).toEqual({
      usage: {},
      error: "stream disconnected",
    });
  });
});
