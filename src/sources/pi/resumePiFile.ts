import { errorMessage } from "../../util/errors.js";
import type { LineResume, ReadResult } from "../adapter.js";
import { type JsonLinesRead, readJsonLines, resumeAfter } from "../jsonl.js";
import { collectItems, entryTimes, sessionInfoName } from "./collectItems.js";
import type { PiEntry } from "./entryItems.js";
import { type PiResumeState, type PiTitles, parsePiState, resolveTitle } from "./piState.js";
import { splitRecords } from "./splitRecords.js";
import { currentTitleSlot } from "./titleSlot.js";

function fullRead(): ReadResult {
  return { sessions: [], problems: [], skipped: 0, needsFullRead: true };
}

/**
 * Continues a session file from where the last read stopped. A linear (v1) file simply continues. A tree
 * file continues only while every new entry hangs off the previous tip; a new branch, or a title slot or
 * header among the new lines, means earlier history changed meaning, so the caller is asked for a full read.
 * omp's title slot on line 1 is rewritten in place, so it is re-read on every resume.
 */
export function resumePiFile(file: string, resume: LineResume): ReadResult {
  const state = parsePiState(resume.state);
  if (!state) return fullRead();
  let lines: JsonLinesRead;
  try {
    lines = readJsonLines(file, resume);
  } catch (error) {
    return { sessions: [], problems: [{ file, reason: `unreadable: ${errorMessage(error)}` }], skipped: 0 };
  }
  const split = splitRecords(lines.records, file);
  if (split.sawTitleSlot || split.header) return fullRead();
  const tip = continuedTip(split.entries, state.tree, state.tip);
  if (tip === false) return fullRead();

  const collected = collectItems(split.entries, file, { tree: state.tree });
  const titles = currentTitles(file, state, split.entries);
  const session = { ...state.session };
  const title = resolveTitle(titles);
  if (title) session.title = title;
  else delete session.title;
  const retitled = title !== state.session.title;
  const last = entryTimes(split.entries).last;
  if (last !== undefined && last > session.updatedAt) session.updatedAt = last;
  const problems = [...lines.problems, ...split.problems, ...collected.problems];
  const next = resumeAfter(lines, { ...state, session, titles, tip });
  const changed = split.entries.length > 0 || retitled;
  const sessions = changed ? [{ session, items: collected.items, partial: true }] : [];
  return { sessions, problems, skipped: collected.skipped, ...next };
}

/** Titles after the append: a newer `session_info` name, and omp's slot as it now reads on line 1. */
function currentTitles(file: string, state: PiResumeState, entries: PiEntry[]): PiTitles {
  const titles = { ...state.titles };
  const info = sessionInfoName(entries);
  if (info) titles.info = info;
  const slot = state.titleSlot ? currentTitleSlot(file) : undefined;
  if (slot === "") delete titles.slot;
  else if (slot !== undefined) titles.slot = slot;
  return titles;
}

/** The new tip after the appended entries, or false when they do not simply extend the old one. */
function continuedTip(entries: PiEntry[], tree: boolean, tip: string | null): string | null | false {
  let current = tip;
  for (const entry of entries) {
    if (entry.id === undefined) continue;
    // An id in a linear file means the file was migrated (rewritten), not appended to.
    if (!tree || (entry.parentId ?? null) !== current) return false;
    current = entry.id;
  }
  return current;
}
