import { readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig, setConfigValue } from "../../src/config/load.js";
import { tempDir } from "../helpers/tempDir.js";

function configFile(yaml: string): string {
  const file = join(tempDir("cairn-config-"), "config.yaml");
  writeFileSync(file, yaml);
  return file;
}

describe("loadConfig", () => {
  it("gives the seed's defaults with no file", () => {
    const config = loadConfig({ file: join(tmpdir(), "does-not-exist.yaml"), env: {} });
    expect(config.memories).toMatchObject({
      enabled: false,
      maxRolloutAgeDays: 30,
      minRolloutIdleHours: 12,
      maxRolloutsPerStartup: 64,
      summaryInjectionTokenLimit: 5000,
    });
    expect(config.extraction.concurrency).toBe(8);
  });

  it("layers YAML, then environment, then flags", () => {
    const file = configFile("memories:\n  maxRolloutAgeDays: 7\nllm:\n  provider: ollama\n");
    const config = loadConfig({
      file,
      env: { CAIRN_LLM_PROVIDER: "openai", CAIRN_LLM_MODEL: "m1" },
      overrides: { "llm.model": "m2" },
    });
    expect(config.memories.maxRolloutAgeDays).toBe(7);
    expect(config.llm).toMatchObject({ provider: "openai", model: "m2" });
  });

  it("names the key, the value and the range of a bad value", () => {
    const file = configFile("memories:\n  maxRolloutAgeDays: 0\n");
    expect(() => loadConfig({ file, env: {} })).toThrow(
      "config: memories.maxRolloutAgeDays = 0 is out of range (1 to 3650)",
    );
  });

  it("rejects unknown keys, bad enums, bad YAML and bad environment values clearly", () => {
    expect(() => loadConfig({ file: configFile("memories:\n  enabeld: true\n"), env: {} })).toThrow(
      /unknown key memories\.enabeld/,
    );
    expect(() => loadConfig({ file: configFile("llm:\n  provider: gpt\n"), env: {} })).toThrow(
      /llm\.provider = "gpt" is not allowed \(one of auto, openai/,
    );
    expect(() => loadConfig({ file: configFile("memories: [\n"), env: {} })).toThrow(/is not valid YAML/);
    expect(() => loadConfig({ env: { CAIRN_MEMORIES_ENABLED: "maybe" } })).toThrow(
      "config: CAIRN_MEMORIES_ENABLED=maybe must be a boolean",
    );
  });

  it("loads a file that still sets a removed recall setting, with one warning line per key", () => {
    const file = configFile(
      "recall:\n  vectorIdf: true\n  feedback:\n    enabled: true\n  alpha: 0.4\n  entityWeight: 2\n",
    );
    const warnings: string[] = [];
    const config = loadConfig({ file, env: {}, warn: (line) => warnings.push(line) });
    expect(config.recall.alpha).toBe(0.4);
    expect(config.recall).not.toHaveProperty("feedback");
    expect(warnings).toEqual([
      "config: recall.vectorIdf is no longer a setting and is ignored; remove it from config.yaml",
      "config: recall.entityWeight is no longer a setting and is ignored; remove it from config.yaml",
      "config: recall.feedback is no longer a setting and is ignored; remove it from config.yaml",
    ]);
    // Any other unknown key is still a typo to fix.
    expect(() => loadConfig({ file: configFile("recall:\n  vectorIdff: true\n"), env: {}, warn: () => {} })).toThrow(
      "config: unknown key recall.vectorIdff",
    );
  });
});

describe("defaults that follow other settings", () => {
  const load = (yaml: string, env: NodeJS.ProcessEnv = {}) => loadConfig({ file: configFile(yaml), env });

  it("gives agent memory the word vectors and conversations the hashed sketch, each with its vector weight", () => {
    const agent = loadConfig({ env: {} });
    expect(agent.recall.profile).toBe("agent");
    expect(agent.embeddings.provider).toBe("wordvec");
    expect(agent.recall.alpha).toBe(0.3);
    const conversation = load("recall:\n  profile: conversation\n");
    expect(conversation.embeddings.provider).toBe("hashed");
    expect(conversation.recall.alpha).toBe(0.15);
  });

  it("lets what the user set win: a provider from the file or the environment, an alpha of their own", () => {
    expect(load("embeddings:\n  provider: hashed\n").recall.alpha).toBe(0.15);
    expect(load("embeddings:\n  provider: ollama\n").recall.alpha).toBe(0.4);
    const fromEnv = load("", { CAIRN_EMBEDDINGS_PROVIDER: "hashed" });
    expect([fromEnv.embeddings.provider, fromEnv.recall.alpha]).toEqual(["hashed", 0.15]);
    const own = load("recall:\n  alpha: 0.05\n  profile: conversation\nembeddings:\n  provider: wordvec\n");
    expect([own.embeddings.provider, own.recall.alpha]).toEqual(["wordvec", 0.05]);
  });

  it("gives each provider its own cosine range, the offline ones none, and lets a range set in the file win", () => {
    expect(loadConfig({ env: {} }).recall.vectorRange).toEqual({ floor: 0, ceiling: 1 });
    expect(load("recall:\n  profile: conversation\n").recall.vectorRange).toEqual({ floor: 0, ceiling: 1 });
    const model = load("embeddings:\n  provider: transformers\n  model: m\n").recall;
    expect([model.alpha, model.vectorRange]).toEqual([0.4, { floor: 0.1, ceiling: 0.75 }]);
    const ollama = load("embeddings:\n  provider: ollama\nrecall:\n  vectorRange:\n    floor: 0.2\n").recall;
    expect(ollama.vectorRange).toEqual({ floor: 0.2, ceiling: 0.85 });
    expect(() => load("recall:\n  vectorRange:\n    floor: 0.6\n    ceiling: 0.5\n")).toThrow(
      /recall\.vectorRange.*ceiling must be above floor/,
    );
  });

  it("still reports a bad provider or profile by name, with the range of a bad alpha", () => {
    expect(() => load("embeddings:\n  provider: glove\n")).toThrow(/embeddings\.provider = "glove" is not allowed/);
    expect(() => load("recall:\n  profile: chat\n")).toThrow(/recall\.profile = "chat" is not allowed/);
    expect(() => load("recall:\n  alpha: 2\n")).toThrow("config: recall.alpha = 2 is out of range (0 to 1)");
  });
});

describe("setConfigValue", () => {
  it("validates before writing and keeps the file when the value is bad", () => {
    const file = configFile("memories:\n  enabled: false\n");
    setConfigValue(file, "memories.enabled", "true");
    expect(readFileSync(file, "utf8")).toContain("enabled: true");
    expect(() => setConfigValue(file, "memories.summaryInjectionTokenLimit", "5")).toThrow(/out of range/);
    expect(readFileSync(file, "utf8")).not.toContain("summaryInjectionTokenLimit");
  });
});
