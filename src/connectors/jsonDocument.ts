import { CairnError } from "../util/errors.js";

export type JsonObject = Record<string, unknown>;

export function isJsonObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** An agent's JSON config file as an object; an absent or blank file is `{}`. */
export function parseJsonObject(text: string | null, file: string): JsonObject {
  if (text === null || text.trim() === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CairnError(
      "connector_config_invalid",
      `${file} is not valid JSON (${(error as Error).message}); fix it first`,
    );
  }
  if (!isJsonObject(value)) throw new CairnError("connector_config_invalid", `${file} does not hold a JSON object`);
  return value;
}

/**
 * Serializes `value` the way `original` was written (its indentation and final newline), so that a merge
 * changes the lines cairn touched and not the whole file's layout.
 */
export function stringifyLike(original: string | null, value: JsonObject): string {
  const indent = original ? indentOf(original) : "  ";
  const newline = original === null || original === "" || original.endsWith("\n") ? "\n" : "";
  return `${JSON.stringify(value, null, indent)}${newline}`;
}

/** The indentation a JSON file's members already use (two spaces when it shows none). */
export function indentOf(text: string): string {
  return /\n([ \t]+)"/.exec(text)?.[1] ?? "  ";
}

/** Structural equality of JSON values (key order ignored). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => jsonEqual(item, b[i]));
  }
  if (isJsonObject(a) && isJsonObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((key) => key in b && jsonEqual(a[key], b[key]));
  }
  return a === b;
}
