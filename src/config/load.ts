import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import type { z } from "zod";
import { redactText } from "../redact/redact.js";
import { writeFileAtomic } from "../util/atomicWrite.js";
import { CairnError, errorMessage } from "../util/errors.js";
import { createMemoryRoot } from "./createMemoryRoot.js";
import { envOverrides } from "./envOverrides.js";
import { withoutRetiredRecallKeys } from "./recallConfig.js";
import { type CairnConfig, configObjectSchema, configSchema } from "./schema.js";

type Tree = Record<string, unknown>;

/**
 * The YAML library (72 modules), loaded when a config file is read or written: most commands of a
 * memory root without config.yaml never need it, and every command starts by loading the config.
 */
function yaml(): typeof import("yaml") {
  return createRequire(import.meta.url)("yaml") as typeof import("yaml");
}

export interface LoadConfigOptions {
  /** Path of config.yaml; a missing file means all defaults. */
  file?: string;
  env?: NodeJS.ProcessEnv;
  /** Dotted keys from command-line flags, applied last. */
  overrides?: Record<string, unknown>;
  /** Where a warning about the file goes (a retired key that is ignored); stderr by default. */
  warn?: (line: string) => void;
}

/** Reads YAML, then the environment, then flags, and validates the result against the schema. */
export function loadConfig(options: LoadConfigOptions = {}): CairnConfig {
  const tree = options.file ? readConfigFile(options.file) : {};
  for (const [variable, key, type] of envOverrides) {
    const raw = (options.env ?? process.env)[variable];
    if (raw !== undefined && raw !== "") setPath(tree, key, coerce(raw, type, variable));
  }
  for (const [key, value] of Object.entries(options.overrides ?? {})) setPath(tree, key, value);
  return validateConfig(tree, options.warn);
}

export function validateConfig(
  tree: unknown,
  warn: (line: string) => void = (line) => process.stderr.write(`cairn: ${line}\n`),
): CairnConfig {
  const current = withoutRetiredRecallKeys(tree);
  for (const key of current.retired)
    warn(`config: ${key} is no longer a setting and is ignored; remove it from config.yaml`);
  const result = configSchema().safeParse(current.tree);
  if (!result.success) throw invalid(formatIssue(result.error.issues[0], tree));
  return result.data;
}

export function readConfigFile(file: string): Tree {
  if (!existsSync(file)) return {};
  let parsed: unknown;
  try {
    parsed = yaml().parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw invalid(`config: ${file} is not valid YAML: ${errorMessage(error).split("\n")[0]}`);
  }
  if (parsed === null || parsed === undefined) return {};
  if (typeof parsed !== "object" || Array.isArray(parsed)) {
    throw invalid(`config: ${file} must hold a mapping of settings`);
  }
  return parsed as Tree;
}

/** Sets one dotted key in the YAML file after validating the whole result; the file is written atomically. */
export function setConfigValue(file: string, key: string, rawValue: string): CairnConfig {
  const tree = readConfigFile(file);
  setPath(tree, key, parseScalar(rawValue));
  const config = validateConfig(tree);
  createMemoryRoot(dirname(file));
  writeFileAtomic(file, yaml().stringify(tree));
  return config;
}

export function getPath(tree: unknown, key: string): unknown {
  let node: unknown = tree;
  for (const part of key.split(".")) {
    if (node === null || typeof node !== "object") return undefined;
    node = (node as Tree)[part];
  }
  return node;
}

function setPath(tree: Tree, key: string, value: unknown): void {
  const parts = key.split(".");
  let node = tree;
  for (const part of parts.slice(0, -1)) {
    const next = node[part];
    if (next === null || typeof next !== "object" || Array.isArray(next)) node[part] = {};
    node = node[part] as Tree;
  }
  node[parts.at(-1)!] = value;
}

/** A value typed on the command line: numbers and booleans become themselves, JSON arrays are parsed. */
export function parseScalar(raw: string): unknown {
  const trimmed = raw.trim();
  if (trimmed === "true" || trimmed === "false") return trimmed === "true";
  if (trimmed !== "" && !Number.isNaN(Number(trimmed))) return Number(trimmed);
  if (trimmed.startsWith("[")) {
    try {
      return JSON.parse(trimmed);
    } catch {
      return raw;
    }
  }
  return raw;
}

function coerce(raw: string, type: "string" | "number" | "boolean", variable: string): unknown {
  if (type === "string") return raw;
  const value = parseScalar(raw);
  if (typeof value !== type) throw invalid(`config: ${variable}=${raw} must be a ${type}`);
  return value;
}

/**
 * A config error, redacted: it quotes the value refused (a credential in the wrong key, an environment
 * variable) or the YAML line that did not parse, and reaches every door that opens a home.
 */
function invalid(message: string): CairnError {
  return new CairnError("config_invalid", redactText(message));
}

function formatIssue(issue: z.core.$ZodIssue | undefined, tree: unknown): string {
  if (!issue) return "config: invalid configuration";
  const key = issue.path.join(".") || "(root)";
  // A credential is never echoed: the error line lands in terminals, logs and CI output.
  const value = /(^|\.)(apiKey|token)$/.test(key) ? "(hidden)" : JSON.stringify(getPath(tree, key));
  if (issue.code === "too_small" || issue.code === "too_big") {
    const range = rangeOf(key);
    return `config: ${key} = ${value} is out of range${range ? ` (${range})` : ""}`;
  }
  if (issue.code === "unrecognized_keys") {
    return `config: unknown key ${[key === "(root)" ? "" : `${key}.`, issue.keys[0]].join("")}; see 'cairn config list'`;
  }
  if (issue.code === "invalid_value") {
    return `config: ${key} = ${value} is not allowed (one of ${issue.values.map(String).join(", ")})`;
  }
  const wanted = issue.code === "invalid_type" ? EXPECTED[issue.expected] : undefined;
  if (wanted) return `config: ${key} = ${value} must be ${wanted}`;
  return `config: ${key} = ${value}: ${issue.message}`;
}

/** What a value of each type looks like, said as a user types it (zod says "expected boolean, received string"). */
const EXPECTED: Record<string, string> = {
  boolean: "true or false",
  number: "a number",
  int: "a whole number",
  string: "a text",
  array: `a list, such as '["one", "two"]'`,
  object: "a group of settings, not a value",
};

/** Reads the allowed range of a numeric key from the schema so errors always match it. */
function rangeOf(key: string): string | undefined {
  const inner = unwrap(schemaAt(key)) as { minValue?: number | null; maxValue?: number | null } | undefined;
  if (inner?.minValue == null || inner.maxValue == null) return undefined;
  return `${inner.minValue} to ${inner.maxValue}`;
}

/** Whether the settings schema has `key` (dotted), set or not: `config get` tells unset from unknown. */
export function isConfigKey(key: string): boolean {
  return schemaAt(key) !== undefined;
}

/** The schema of one dotted key, undefined when the settings have no such key. */
function schemaAt(key: string): unknown {
  let node: unknown = configObjectSchema();
  for (const part of key.split(".")) {
    const shape = (unwrap(node) as { shape?: Record<string, unknown> } | undefined)?.shape;
    if (!shape || !Object.hasOwn(shape, part)) return undefined;
    node = shape[part];
  }
  return node;
}

/** The schema beneath defaults, optionals and preprocessing (a pipe's output side). */
function unwrap(node: unknown): unknown {
  let current = node as { def?: { innerType?: unknown; out?: unknown } } | undefined;
  while (current?.def?.innerType || current?.def?.out)
    current = (current.def.innerType ?? current.def.out) as typeof current;
  return current;
}
