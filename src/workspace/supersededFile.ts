import { readFileSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../util/atomicWrite.js";
import type { StaleStatement } from "./staleStatements.js";

/** The file at the memories root listing what is no longer true, for readers that open no store. */
export const SUPERSEDED_FILE = "superseded.json";

/** Readers refuse a larger file. */
export const SUPERSEDED_FILE_MAX_BYTES = 8 * 1024 * 1024;

/**
 * One entry as written. Checked by hand, not with zod: this file is read by every session-start
 * injection, and loading zod's chunk there cost more than the whole read.
 */
function isStatement(value: unknown): value is StaleStatement {
  if (typeof value !== "object" || value === null) return false;
  const entry = value as Record<string, unknown>;
  return (
    typeof entry.scope === "string" &&
    typeof entry.statement === "string" &&
    (entry.replacement === null || typeof entry.replacement === "string") &&
    typeof entry.at === "number" &&
    (entry.doubted === undefined || entry.doubted === true)
  );
}

/** How many stale statements the file keeps, newest first (and as many doubted ones). */
export const SUPERSEDED_FILE_LIMIT = 500;

/** Writes the list when it changed; phase 2 keeps it current on every run. */
export function writeSupersededFile(memoriesRoot: string, statements: readonly StaleStatement[]): void {
  const text = `${JSON.stringify({ version: 1, statements }, null, 1)}\n`;
  const path = join(memoriesRoot, SUPERSEDED_FILE);
  let before: string | undefined;
  try {
    before = readFileSync(path, "utf8");
  } catch {
    before = undefined;
  }
  if (before !== text) writeFileAtomic(path, text);
}

/**
 * The stale statements in the text of the file; empty when it cannot be parsed (a session start must
 * not fail on it: phase 2 already revised the workspaces themselves).
 */
export function parseSupersededFile(text: string): StaleStatement[] {
  try {
    const parsed = JSON.parse(text) as { version?: unknown; statements?: unknown };
    if (parsed?.version !== 1 || !Array.isArray(parsed.statements) || !parsed.statements.every(isStatement)) return [];
    return parsed.statements.map(({ scope, statement, replacement, at, doubted }) => ({
      scope,
      statement,
      replacement,
      at,
      ...(doubted ? { doubted } : {}),
    }));
  } catch {
    return [];
  }
}
