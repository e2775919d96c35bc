import { parseTime } from "../../util/clock.js";
import { asString } from "../jsonl.js";
import type { ParseProblem, SessionItem } from "../types.js";
import { entryItems, type PiEntry } from "./entryItems.js";

export interface CollectedItems {
  items: SessionItem[];
  skipped: number;
  problems: ParseProblem[];
}

/**
 * Items of the entries in file order. `keep` decides which entries belong to the conversation (the active
 * branch of a tree file); the others are counted as skipped. Keys are the entry id in tree files and
 * `L<line>` otherwise, so a full re-read yields the same keys as the reads that came before it.
 */
export function collectItems(
  entries: PiEntry[],
  file: string,
  options: { tree: boolean; keep?: (entry: PiEntry) => boolean },
): CollectedItems {
  const result: CollectedItems = { items: [], skipped: 0, problems: [] };
  for (const entry of entries) {
    if (options.keep && !options.keep(entry)) {
      result.skipped += 1;
      continue;
    }
    const key = options.tree && entry.id !== undefined ? entry.id : `L${entry.line}`;
    const outcome = entryItems(entry, file, key);
    if (outcome.problem) result.problems.push({ file, line: entry.line, reason: outcome.problem });
    else if (outcome.skipped) result.skipped += 1;
    result.items.push(...outcome.items);
  }
  return result;
}

/** Earliest and latest entry timestamps (epoch ms), undefined when no entry has one. */
export function entryTimes(entries: PiEntry[]): { first?: number; last?: number } {
  let first: number | undefined;
  let last: number | undefined;
  for (const entry of entries) {
    const ts = parseTime(entry.value.timestamp);
    if (ts === undefined) continue;
    if (first === undefined || ts < first) first = ts;
    if (last === undefined || ts > last) last = ts;
  }
  return { ...(first === undefined ? {} : { first }), ...(last === undefined ? {} : { last }) };
}

/** The name given by the latest `session_info` entry (pi's /name), if any. */
export function sessionInfoName(entries: PiEntry[]): string | undefined {
  let name: string | undefined;
  for (const entry of entries) {
    if (entry.type !== "session_info") continue;
    const value = asString(entry.value.name)?.trim();
    if (value) name = value;
  }
  return name;
}
