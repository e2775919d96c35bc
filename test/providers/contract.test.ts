import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AnthropicProvider } from "../../src/providers/llm/anthropic.js";
import { ClaudeCliProvider } from "../../src/providers/llm/claudeCli.js";
import { CodexCliProvider } from "../../src/providers/llm/codexCli.js";
import { OllamaProvider } from "../../src/providers/llm/ollama.js";
import { OpenAiProvider } from "../../src/providers/llm/openai.js";
import { type LlmProvider, ProviderError } from "../../src/providers/llm/types.js";
import { installFakeCli } from "../helpers/fakeCli.js";
import { json, startLoopbackServer } from "../helpers/loopbackServer.js";

const ANSWER = '{"status":"ok"}';

/** One implementation under the contract: a provider whose backend can be told to succeed or fail. */
interface Subject {
  provider: LlmProvider;
  succeed(): void;
  fail(): void;
  close(): Promise<void> | void;
}

type SubjectFactory = () => Promise<Subject>;

const httpSubject =
  (create: (url: string) => LlmProvider, answer: unknown): SubjectFactory =>
  async () => {
    const server = await startLoopbackServer(() => json(answer));
    return {
      provider: create(server.url),
      succeed: () => server.setHandler(() => json(answer)),
      fail: () => server.setHandler(() => json({ error: "overloaded" }, 503)),
      close: () => server.close(),
    };
  };

const cliSubject =
  (name: string, create: (env: NodeJS.ProcessEnv) => LlmProvider, success: { stdout?: string; lastMessage?: string }) =>
  async (): Promise<Subject> => {
    const fake = installFakeCli(name, { kind: "answer", ...success });
    return {
      provider: create(fake.env),
      succeed: () => fake.setBehaviour({ kind: "answer", ...success }),
      fail: () => fake.setBehaviour({ kind: "exit", exitCode: 1, stderr: "rate limited" }),
      close: () => fake.cleanup(),
    };
  };

const subjects: Array<[string, SubjectFactory]> = [
  [
    "openai",
    httpSubject((url) => new OpenAiProvider({ baseUrl: url, apiKey: "k" }), {
      choices: [{ message: { content: ANSWER }, finish_reason: "stop" }],
      usage: { prompt_tokens: 5, completion_tokens: 2 },
    }),
  ],
  [
    "anthropic",
    httpSubject((url) => new AnthropicProvider({ baseUrl: url, apiKey: "k" }), {
      content: [{ type: "tool_use", name: "contract", input: { status: "ok" } }],
      stop_reason: "tool_use",
      usage: { input_tokens: 5, output_tokens: 2 },
    }),
  ],
  [
    "ollama",
    httpSubject((url) => new OllamaProvider({ baseUrl: url }), {
      message: { role: "assistant", content: ANSWER },
      done: true,
      prompt_eval_count: 5,
      eval_count: 2,
    }),
  ],
  [
    "claude-cli",
    cliSubject("claude", (env) => new ClaudeCliProvider({ env }), {
      stdout: JSON.stringify({
        type: "result",
        is_error: false,
        result: ANSWER,
        usage: { input_tokens: 5, output_tokens: 2 },
      }),
    }),
  ],
  [
    "codex-cli",
    cliSubject("codex", (env) => new CodexCliProvider({ env }), {
      lastMessage: ANSWER,
      stdout: JSON.stringify({ type: "turn.completed", usage: { input_tokens: 5, output_tokens: 2 } }),
    }),
  ],
];

// The CLI subjects use fake executables, which Windows cannot run from PATH.
describe.skipIf(process.platform === "win32").each(subjects)("LlmProvider contract: %s", (name, createSubject) => {
  let subject: Subject;
  beforeAll(async () => {
    subject = await createSubject();
  });
  afterAll(() => subject.close());

  it("names itself and its model", () => {
    expect(subject.provider.name).toBe(name);
    expect(subject.provider.model).toMatch(/\S/);
  });

  it("answers a schema request with the JSON text, usage and its own name", async () => {
    subject.succeed();
    const result = await subject.provider.generate({
      system: "Answer with the status.",
      prompt: "How are things?",
      jsonSchema: { name: "contract", schema: { type: "object", properties: { status: { type: "string" } } } },
    });
    expect(JSON.parse(result.text)).toEqual({ status: "ok" });
    expect(result.usage).toEqual({ inputTokens: 5, outputTokens: 2 });
    expect(result.provider).toBe(name);
    expect(result.model).toBe(subject.provider.model);
    expect(Array.isArray(result.warnings)).toBe(true);
    for (const warning of result.warnings) expect(warning.startsWith(`${name}: `)).toBe(true);
  });

  it("fails with a retryable ProviderError that names the provider", async () => {
    subject.fail();
    const error = await subject.provider.generate({ system: "", prompt: "p" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    const failure = error as ProviderError;
    expect(failure.provider).toBe(name);
    expect(["http", "exit"]).toContain(failure.kind);
    expect(failure.isRetryable).toBe(true);
    expect(failure.message.startsWith(`${name}: `)).toBe(true);
  });

  it("answers available() with a boolean and never throws", async () => {
    await expect(subject.provider.available()).resolves.toBeTypeOf("boolean");
  });
});
