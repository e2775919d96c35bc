import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfigCached } from "../../src/config/loadConfigCached.js";

const KEY = "sk-live-9f8e7d6c5b4a39281706f5e4d3c2b1a0";
const SMOL = "sk-smol-0a1b2c3d4e5f60718293a4b5c6d7e8f9";
const TOKEN = "tok-3c5a9e1f0b2d4c6e8a0b1c2d3e4f5a6b7c8d9e0f";

describe("the config cache and credentials given in the environment", () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  function home(): { dir: string; file: string } {
    const dir = mkdtempSync(join(tmpdir(), "cairn-cfgsecret-"));
    dirs.push(dir);
    const file = join(dir, "config.yaml");
    writeFileSync(file, "memories:\n  enabled: true\n");
    return { dir, file };
  }

  const env = { CAIRN_LLM_API_KEY: KEY, CAIRN_SMOL_API_KEY: SMOL, CAIRN_SERVER_TOKEN: TOKEN };

  it("never writes them to any file, yet hands them to the caller from the cache", async () => {
    const { dir, file } = home();
    const first = await loadConfigCached({ file, env });
    const second = await loadConfigCached({ file, env });
    for (const config of [first, second]) {
      expect(config.llm.apiKey).toBe(KEY);
      expect(config.smol.apiKey).toBe(SMOL);
      expect(config.server.token).toBe(TOKEN);
    }
    for (const name of readdirSync(dir)) {
      const bytes = readFileSync(join(dir, name), "utf8");
      for (const secret of [KEY, SMOL, TOKEN]) expect(bytes, name).not.toContain(secret);
    }
  });

  it("follows a changed or removed key instead of serving a stale one", async () => {
    const { file } = home();
    await loadConfigCached({ file, env });
    expect((await loadConfigCached({ file, env: { ...env, CAIRN_LLM_API_KEY: "sk-other" } })).llm.apiKey).toBe(
      "sk-other",
    );
    expect((await loadConfigCached({ file, env: {} })).llm.apiKey).toBeUndefined();
  });

  it("keeps a key that config.yaml itself holds", async () => {
    const { file } = home();
    writeFileSync(file, "llm:\n  apiKey: from-the-file\n");
    await loadConfigCached({ file, env: {} });
    expect((await loadConfigCached({ file, env: {} })).llm.apiKey).toBe("from-the-file");
  });
});
