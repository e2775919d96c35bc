import { existsSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { writeFileAtomic } from "../util/atomicWrite.js";
import { envOverrides, secretEnvVariables } from "./envOverrides.js";
import type { CairnConfig } from "./schema.js";

const require = createRequire(import.meta.url);

type Tree = Record<string, unknown>;

/**
 * The validated configuration, from a small cache next to config.yaml when neither the file, the
 * overriding environment variables nor the cairn build changed (a rebuilt checkout keeps its version
 * but may know new settings: a cache without them would read as those settings switched off). An agent's start hook runs this on
 * every session start; the cache spares it the YAML parser and the schema library (most of its time).
 *
 * Credentials given in the environment (`secretEnvVariables`) never reach the cache: the key records
 * only whether each is set, the saved config leaves them out, and they are put back from the
 * environment on every read. A value that is a plain string needs no validation to be re-applied.
 */
export async function loadConfigCached(options: {
  file: string;
  env: NodeJS.ProcessEnv;
  /** Where a warning goes; by default a `cairn: ` line on stderr, as every command prints it. */
  warn?: (line: string) => void;
}): Promise<CairnConfig> {
  const cacheFile = join(dirname(options.file), ".config-cache.json");
  const key = configCacheKey(options.file, options.env);
  try {
    const cached = JSON.parse(readFileSync(cacheFile, "utf8")) as { key: string; config: CairnConfig };
    if (cached.key === key) return withEnvSecrets(cached.config, options.env);
  } catch {
    // No cache yet, or unreadable: validate from scratch below.
  }
  const { loadConfig } = await import("./load.js");
  let warned = false;
  const config = loadConfig({
    file: options.file,
    env: options.env,
    warn: (line) => {
      warned = true;
      if (options.warn) options.warn(line);
      else process.stderr.write(`cairn: ${line}\n`);
    },
  });
  // A config that warns (a retired key) is read again each time, so that every command says so; and
  // the cache never creates the memory root a read-only command may find missing.
  if (!warned && existsSync(dirname(cacheFile))) {
    try {
      writeFileAtomic(cacheFile, JSON.stringify({ key, config: withoutEnvSecrets(config, options.env) }));
    } catch {
      // A read-only memory root still gets a correct config, just without the speed-up.
    }
  }
  return config;
}

/**
 * What a cached config is valid for: the file's stamp, the overriding variables, the version and the
 * build (`build`, by default the stamp of this module's file, which every build writes anew).
 */
export function configCacheKey(file: string, env: NodeJS.ProcessEnv, build: string = buildStamp()): string {
  let stamp = "missing";
  try {
    const stat = statSync(file);
    stamp = `${stat.size}:${stat.mtimeMs}`;
  } catch {
    // A missing file means defaults; that is part of the key.
  }
  const version = (require("../../package.json") as { version: string }).version;
  const vars = envOverrides
    .map(([name]) => `${name}=${secretEnvVariables.has(name) ? (isSet(env[name]) ? "(set)" : "") : (env[name] ?? "")}`)
    .join("\n");
  return `${version}\n${build}\n${stamp}\n${vars}`;
}

function buildStamp(): string {
  try {
    const stat = statSync(fileURLToPath(import.meta.url));
    return `${stat.size}:${stat.mtimeMs}`;
  } catch {
    return "unknown";
  }
}

function isSet(value: string | undefined): value is string {
  return value !== undefined && value !== "";
}

/** The config minus every credential that came from the environment (those win over the file's). */
function withoutEnvSecrets(config: CairnConfig, env: NodeJS.ProcessEnv): CairnConfig {
  const copy = structuredClone(config) as unknown as Tree;
  for (const [name, path] of envOverrides) {
    if (secretEnvVariables.has(name) && isSet(env[name])) deletePath(copy, path);
  }
  return copy as unknown as CairnConfig;
}

function withEnvSecrets(config: CairnConfig, env: NodeJS.ProcessEnv): CairnConfig {
  const tree = config as unknown as Tree;
  for (const [name, path] of envOverrides) {
    const value = env[name];
    if (secretEnvVariables.has(name) && isSet(value)) setPath(tree, path, value);
  }
  return config;
}

function deletePath(tree: Tree, path: string): void {
  const parts = path.split(".");
  const parent = parts.slice(0, -1).reduce<unknown>((node, part) => (node as Tree | undefined)?.[part], tree);
  if (parent !== null && typeof parent === "object") delete (parent as Tree)[parts.at(-1)!];
}

function setPath(tree: Tree, path: string, value: unknown): void {
  const parts = path.split(".");
  let node = tree;
  for (const part of parts.slice(0, -1)) {
    if (node[part] === null || typeof node[part] !== "object") node[part] = {};
    node = node[part] as Tree;
  }
  node[parts.at(-1)!] = value;
}
