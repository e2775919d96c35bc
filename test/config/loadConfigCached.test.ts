import { existsSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { configCacheKey, loadConfigCached } from "../../src/config/loadConfigCached.js";
import { tempDir } from "../helpers/tempDir.js";

describe("loadConfigCached", () => {
  it("serves the validated config from its cache until the file or an overriding variable changes", async () => {
    const dir = tempDir("cairn-cfgcache-");
    const file = join(dir, "config.yaml");
    writeFileSync(file, "memories:\n  summaryInjectionTokenLimit: 800\n");
    expect((await loadConfigCached({ file, env: {} })).memories.summaryInjectionTokenLimit).toBe(800);
    // Same size and mtime, different content: the cache answers (it keys on the file's stamp).
    writeFileSync(file, "memories:\n  summaryInjectionTokenLimit: 900\n");
    utimesSync(file, new Date(0), new Date(0));
    const first = await loadConfigCached({ file, env: {} });
    writeFileSync(file, "memories:\n  summaryInjectionTokenLimit: 700\n");
    utimesSync(file, new Date(0), new Date(0));
    expect((await loadConfigCached({ file, env: {} })).memories.summaryInjectionTokenLimit).toBe(
      first.memories.summaryInjectionTokenLimit,
    );
    // A new stamp invalidates it.
    writeFileSync(file, "memories:\n  summaryInjectionTokenLimit: 1200\n");
    expect((await loadConfigCached({ file, env: {} })).memories.summaryInjectionTokenLimit).toBe(1200);
    expect((await loadConfigCached({ file, env: { CAIRN_MEMORIES_ENABLED: "true" } })).memories.enabled).toBe(true);
    expect((await loadConfigCached({ file, env: {} })).memories.enabled).toBe(false);
  });

  it("does not trust a cache another build wrote: it may lack settings this build knows", async () => {
    const dir = tempDir("cairn-cfgcache-");
    const file = join(dir, "config.yaml");
    writeFileSync(file, "memories:\n  summaryInjectionTokenLimit: 800\n");
    const fresh = await loadConfigCached({ file, env: {} });
    // The same version, file and variables, written by an older build that had no rememberedInjectionLimit.
    const { rememberedInjectionLimit: _, ...olderMemories } = fresh.memories;
    const older = { ...fresh, memories: olderMemories };
    writeFileSync(
      join(dir, ".config-cache.json"),
      JSON.stringify({ key: configCacheKey(file, {}, "an-older-build"), config: older }),
    );
    expect((await loadConfigCached({ file, env: {} })).memories.rememberedInjectionLimit).toBe(15);
    // The cache this build wrote back is used again.
    expect(await loadConfigCached({ file, env: {} })).toEqual(fresh);
  });

  it("reads a config that warns again each time, so that every command says so", async () => {
    const dir = tempDir("cairn-cfgcache-");
    const file = join(dir, "config.yaml");
    writeFileSync(file, "recall:\n  feedback: true\n");
    const written = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      await loadConfigCached({ file, env: {} });
      await loadConfigCached({ file, env: {} });
      const warnings = written.mock.calls
        .map(([line]) => String(line))
        .filter((line) => line.includes("recall.feedback"));
      expect(warnings).toHaveLength(2);
    } finally {
      written.mockRestore();
    }
    expect(existsSync(join(dir, ".config-cache.json"))).toBe(false);
  });

  it("never creates a memory root that does not exist", async () => {
    const dir = join(tempDir("cairn-cfgcache-"), "not-yet");
    expect((await loadConfigCached({ file: join(dir, "config.yaml"), env: {} })).memories.enabled).toBe(false);
    expect(existsSync(dir)).toBe(false);
  });

  it("still rejects a bad file with the loader's error", async () => {
    const dir = tempDir("cairn-cfgcache-");
    const file = join(dir, "config.yaml");
    writeFileSync(file, "memories:\n  summaryInjectionTokenLimit: 1\n");
    await expect(loadConfigCached({ file, env: {} })).rejects.toThrow(/out of range/);
  });
});
