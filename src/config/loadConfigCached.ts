import { readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { writeFileAtomic } from "../util/atomicWrite.js";
import { envOverrides } from "./envOverrides.js";
import type { CairnConfig } from "./schema.js";

const require = createRequire(import.meta.url);

/**
 * The validated configuration, from a small cache next to config.yaml when neither the file, the
 * overriding environment variables nor the cairn version changed. An agent's start hook runs this on
 * every session start; the cache spares it the YAML parser and the schema library (most of its time).
 */
export async function loadConfigCached(options: { file: string; env: NodeJS.ProcessEnv }): Promise<CairnConfig> {
  const cacheFile = join(dirname(options.file), ".config-cache.json");
  const key = cacheKey(options.file, options.env);
  try {
    const cached = JSON.parse(readFileSync(cacheFile, "utf8")) as { key: string; config: CairnConfig };
    if (cached.key === key) return cached.config;
  } catch {
    // No cache yet, or unreadable: validate from scratch below.
  }
  const { loadConfig } = await import("./load.js");
  const config = loadConfig({ file: options.file, env: options.env });
  try {
    writeFileAtomic(cacheFile, JSON.stringify({ key, config }));
  } catch {
    // A read-only memory root still gets a correct config, just without the speed-up.
  }
  return config;
}

function cacheKey(file: string, env: NodeJS.ProcessEnv): string {
  let stamp = "missing";
  try {
    const stat = statSync(file);
    stamp = `${stat.size}:${stat.mtimeMs}`;
  } catch {
    // A missing file means defaults; that is part of the key.
  }
  const version = (require("../../package.json") as { version: string }).version;
  const vars = envOverrides.map(([name]) => `${name}=${env[name] ?? ""}`).join("\n");
  return `${version}\n${stamp}\n${vars}`;
}
