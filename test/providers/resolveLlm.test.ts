import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CairnConfig } from "../../src/config/schema.js";
import { type ResolveLlmOptions, resolveLlm } from "../../src/providers/llm/roles.js";
import { type FakeCli, installFakeCli } from "../helpers/fakeCli.js";
import { json, type LoopbackServer, startLoopbackServer } from "../helpers/loopbackServer.js";

type Roles = Pick<CairnConfig, "llm" | "smol">;
const config = (llm: Partial<CairnConfig["llm"]> = {}, smol: CairnConfig["smol"] = {}): Roles => ({
  llm: { provider: "auto", timeoutMs: 120_000, ...llm },
  smol,
});

const noOllama: ResolveLlmOptions = { probeOllama: false };
const ollamaWith =
  (models: string[] | undefined): ResolveLlmOptions["listOllamaModels"] =>
  async () =>
    models;

// Detection reads PATH directly; fake executables need a POSIX shell-free exec, not available on Windows.
describe.skipIf(process.platform === "win32")("resolveLlm", () => {
  let emptyDir: string;
  let claude: FakeCli;
  let codex: FakeCli;
  let both: FakeCli;
  beforeAll(() => {
    emptyDir = mkdtempSync(path.join(os.tmpdir(), "cairn-empty-path-"));
    claude = installFakeCli("claude", { kind: "answer" });
    codex = installFakeCli("codex", { kind: "answer" });
    both = installFakeCli("claude", { kind: "answer" });
    installFakeCli("codex", { kind: "answer" }, { dir: both.dir });
  });
  afterAll(() => {
    for (const fake of [claude, codex, both]) fake.cleanup();
    rmSync(emptyDir, { recursive: true, force: true });
  });

  /** A controlled environment: nothing on PATH unless given, no keys unless given. */
  const env = (vars: Record<string, string> = {}, pathDirs: string[] = []): NodeJS.ProcessEnv => ({
    PATH: [...pathDirs, emptyDir].join(path.delimiter),
    ...vars,
  });

  it("explicit offline is null for both roles", async () => {
    const resolved = await resolveLlm(config({ provider: "offline" }), env({ OPENAI_API_KEY: "sk-x" }), noOllama);
    expect(resolved).toEqual({
      default: null,
      smol: null,
      reason: "llm.provider is offline → offline; smol: uses the default role",
    });
  });

  it("is offline when nothing is found, and says what was looked for", async () => {
    const resolved = await resolveLlm(config(), env(), noOllama);
    expect(resolved.default).toBeNull();
    expect(resolved.reason).toBe(
      "no LLM found (no OPENAI_API_KEY or ANTHROPIC_API_KEY, Ollama not probed, no claude or codex on PATH) → offline; smol: uses the default role",
    );
  });

  it("picks OpenAI first when both keys are set, honouring OPENAI_BASE_URL", async () => {
    const resolved = await resolveLlm(
      config(),
      env({ OPENAI_API_KEY: "sk-o", ANTHROPIC_API_KEY: "sk-ant-a", OPENAI_BASE_URL: "https://proxy.example/v1" }),
      noOllama,
    );
    expect(resolved.default).toMatchObject({ name: "openai", model: "gpt-5-mini" });
    expect(resolved.reason).toBe(
      "OPENAI_API_KEY is set → openai (gpt-5-mini at https://proxy.example/v1); smol: uses the default role",
    );
  });

  it("ANTHROPIC_API_KEY → anthropic with the default model", async () => {
    const resolved = await resolveLlm(config(), env({ ANTHROPIC_API_KEY: "sk-ant-a" }, [claude.dir]), noOllama);
    expect(resolved.default).toMatchObject({ name: "anthropic", model: "claude-haiku-4-5" });
    expect(resolved.reason).toBe(
      "ANTHROPIC_API_KEY is set → anthropic (claude-haiku-4-5); smol: uses the default role",
    );
  });

  it("a reachable Ollama comes after keys and before the CLIs, with an installed model", async () => {
    const withDefault = await resolveLlm(config(), env({}, [claude.dir]), {
      listOllamaModels: ollamaWith(["llama3.2:latest", "qwen2.5:7b"]),
    });
    expect(withDefault.default).toMatchObject({ name: "ollama", model: "qwen2.5:7b" });
    expect(withDefault.reason).toBe(
      "Ollama answers at http://127.0.0.1:11434 → ollama (qwen2.5:7b); smol: uses the default role",
    );
    const withOther = await resolveLlm(config(), env(), { listOllamaModels: ollamaWith(["llama3.2:latest"]) });
    expect(withOther.default).toMatchObject({ name: "ollama", model: "llama3.2:latest" });
  });

  it("an Ollama without models is skipped", async () => {
    const resolved = await resolveLlm(config(), env({}, [claude.dir]), { listOllamaModels: ollamaWith([]) });
    expect(resolved.default).toMatchObject({ name: "claude-cli" });
    const offline = await resolveLlm(config(), env(), { listOllamaModels: ollamaWith([]) });
    expect(offline.reason).toContain("Ollama at http://127.0.0.1:11434 has no models");
  });

  it("claude on PATH comes before codex", async () => {
    const claudeOnly = await resolveLlm(config(), env({}, [claude.dir]), noOllama);
    expect(claudeOnly.default).toMatchObject({ name: "claude-cli", model: "haiku" });
    expect(claudeOnly.reason).toBe("claude is on PATH → claude-cli (haiku); smol: uses the default role");
    const bothOnPath = await resolveLlm(config(), env({}, [both.dir]), noOllama);
    expect(bothOnPath.default).toMatchObject({ name: "claude-cli" });
    const codexOnly = await resolveLlm(config(), env({}, [codex.dir]), noOllama);
    expect(codexOnly.default).toMatchObject({ name: "codex-cli", model: "codex-default" });
    expect(codexOnly.reason).toBe("codex is on PATH → codex-cli (codex-default); smol: uses the default role");
  });

  it("explicit config fields come before the environment", async () => {
    const localServer = await resolveLlm(
      config({ baseUrl: "http://127.0.0.1:8080/v1", model: "qwen3-8b" }),
      env({ ANTHROPIC_API_KEY: "sk-ant-a" }),
      noOllama,
    );
    expect(localServer.default).toMatchObject({ name: "openai", model: "qwen3-8b" });
    expect(localServer.reason).toBe(
      "llm.baseUrl is set → openai (qwen3-8b at http://127.0.0.1:8080/v1); smol: uses the default role",
    );
    const ollamaUrl = await resolveLlm(config({ baseUrl: "http://gpu:11434" }), env(), noOllama);
    expect(ollamaUrl.default).toMatchObject({ name: "ollama" });
    const anthropicKey = await resolveLlm(config({ apiKey: "sk-ant-xyz" }), env({ OPENAI_API_KEY: "sk-o" }), noOllama);
    expect(anthropicKey.default).toMatchObject({ name: "anthropic" });
    expect(anthropicKey.reason).toMatch(/^llm\.apiKey is set → anthropic/);
  });

  it("a configured model narrows detection to providers that serve it", async () => {
    const keys = { OPENAI_API_KEY: "sk-o", ANTHROPIC_API_KEY: "sk-ant-a" };
    const claudeModel = await resolveLlm(config({ model: "claude-sonnet-4-5" }), env(keys), noOllama);
    expect(claudeModel.default).toMatchObject({ name: "anthropic", model: "claude-sonnet-4-5" });
    const viaCli = await resolveLlm(
      config({ model: "claude-sonnet-4-5" }),
      env({ OPENAI_API_KEY: "sk-o" }, [both.dir]),
      noOllama,
    );
    expect(viaCli.default).toMatchObject({ name: "claude-cli", model: "claude-sonnet-4-5" });
    const openWeights = await resolveLlm(config({ model: "llama3.1:8b" }), env(keys), {
      listOllamaModels: ollamaWith(["llama3.1:8b"]),
    });
    expect(openWeights.default).toMatchObject({ name: "ollama", model: "llama3.1:8b" });
    const nothing = await resolveLlm(config({ model: "gpt-5" }), env({ ANTHROPIC_API_KEY: "k" }), noOllama);
    expect(nothing.reason).toMatch(/^no LLM for llm\.model gpt-5 found/);
  });

  it("an explicit provider is used as configured and says what is missing", async () => {
    const resolved = await resolveLlm(config({ provider: "anthropic" }), env(), noOllama);
    expect(resolved.default).toMatchObject({ name: "anthropic", model: "claude-haiku-4-5" });
    expect(resolved.reason).toBe(
      "llm.provider is anthropic → anthropic (claude-haiku-4-5); no API key: set ANTHROPIC_API_KEY or llm.apiKey; smol: uses the default role",
    );
    const ollama = await resolveLlm(config({ provider: "ollama" }), env({ OLLAMA_HOST: "0.0.0.0:11500" }), noOllama);
    expect(ollama.reason).toBe(
      "llm.provider is ollama → ollama (qwen2.5:7b at http://127.0.0.1:11500); smol: uses the default role",
    );
  });

  describe("the smol role", () => {
    it("is the default provider itself when nothing is set for it", async () => {
      const resolved = await resolveLlm(config(), env({ ANTHROPIC_API_KEY: "k" }), noOllama);
      expect(resolved.smol).toBe(resolved.default);
    });

    it("inherits provider, endpoint and key when only its model is set", async () => {
      const server = await startLoopbackServer(() =>
        json({ choices: [{ message: { content: "ok" }, finish_reason: "stop" }] }),
      );
      try {
        const resolved = await resolveLlm(
          config({}, { model: "gpt-5-nano" }),
          env({ OPENAI_API_KEY: "sk-inherited-key", OPENAI_BASE_URL: `${server.url}/v1` }),
          noOllama,
        );
        expect(resolved.default).toMatchObject({ name: "openai", model: "gpt-5-mini" });
        expect(resolved.smol).toMatchObject({ name: "openai", model: "gpt-5-nano" });
        expect(resolved.reason).toBe(
          `OPENAI_API_KEY is set → openai (gpt-5-mini at ${server.url}/v1); smol: smol.model set → openai (gpt-5-nano at ${server.url}/v1)`,
        );
        await resolved.smol!.generate({ system: "", prompt: "p" });
        expect(server.requests[0]?.headers.authorization).toBe("Bearer sk-inherited-key");
        expect(server.requests[0]?.body).toMatchObject({ model: "gpt-5-nano" });
      } finally {
        await server.close();
      }
    });

    it("does not inherit another provider's model", async () => {
      const resolved = await resolveLlm(
        config({}, { provider: "anthropic" }),
        env({ OPENAI_API_KEY: "sk-o", ANTHROPIC_API_KEY: "sk-ant-a" }),
        noOllama,
      );
      expect(resolved.default).toMatchObject({ name: "openai", model: "gpt-5-mini" });
      expect(resolved.smol).toMatchObject({ name: "anthropic", model: "claude-haiku-4-5" });
    });

    it("can be offline on its own, and inherits an offline default", async () => {
      const smolOffline = await resolveLlm(
        config({}, { provider: "offline" }),
        env({ ANTHROPIC_API_KEY: "k" }),
        noOllama,
      );
      expect(smolOffline.default).not.toBeNull();
      expect(smolOffline.smol).toBeNull();
      expect(smolOffline.reason).toMatch(/; smol: smol\.provider is offline → offline$/);
      const inherited = await resolveLlm(config({ provider: "offline" }, { model: "x" }), env(), noOllama);
      expect(inherited.smol).toBeNull();
      expect(inherited.reason).toBe("llm.provider is offline → offline; smol: inherits offline from the default role");
    });

    it("a smol timeout alone gives a separate instance of the same provider", async () => {
      const resolved = await resolveLlm(config(), env({ ANTHROPIC_API_KEY: "k" }), noOllama);
      const withTimeout = await resolveLlm(config({}, { timeoutMs: 5_000 }), env({ ANTHROPIC_API_KEY: "k" }), noOllama);
      expect(withTimeout.smol).not.toBe(withTimeout.default);
      expect(withTimeout.smol).toMatchObject({ name: "anthropic", model: resolved.default!.model });
    });
  });

  describe("the Ollama probe", () => {
    let server: LoopbackServer;
    beforeAll(async () => {
      server = await startLoopbackServer((request) =>
        request.path === "/api/tags" ? json({ models: [{ name: "qwen2.5:7b" }] }) : undefined,
      );
    });
    afterAll(() => server.close());

    it("finds an Ollama at OLLAMA_HOST over the wire", async () => {
      const resolved = await resolveLlm(config(), env({ OLLAMA_HOST: server.url }));
      expect(resolved.default).toMatchObject({ name: "ollama", model: "qwen2.5:7b" });
      expect(server.requests.at(-1)).toMatchObject({ method: "GET", path: "/api/tags" });
    });

    it("gives up within the short probe timeout and moves on", async () => {
      server.setHandler(() => undefined); // accepts the connection, never answers
      const started = Date.now();
      const resolved = await resolveLlm(config(), env({ OLLAMA_HOST: server.url }, [codex.dir]), {
        ollamaTimeoutMs: 200,
      });
      expect(Date.now() - started).toBeLessThan(1_500);
      expect(resolved.default).toMatchObject({ name: "codex-cli" });
    });
  });
});
