import { readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { writeFileAtomic } from "../util/atomicWrite.js";
import type { StaleStatement } from "./staleStatements.js";

/** The file at the memories root listing what is no longer true, for readers that open no store. */
export const SUPERSEDED_FILE = "superseded.json";

/** Readers refuse a larger file. */
export const SUPERSEDED_FILE_MAX_BYTES = 8 * 1024 * 1024;

const fileSchema = z.object({
  version: z.literal(1),
  statements: z.array(
    z.object({
      scope: z.string(),
      statement: z.string(),
      replacement: z.string().nullable(),
      at: z.number(),
    }),
  ),
});

/** How many stale statements the file keeps, newest first. */
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
    const parsed = fileSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data.statements : [];
  } catch {
    return [];
  }
}
