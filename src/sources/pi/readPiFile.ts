import { statSync } from "node:fs";
import { errorMessage } from "../../util/errors.js";
import type { ReadResult } from "../adapter.js";
import { type JsonLinesRead, readJsonLines, resumeAfter } from "../jsonl.js";
import type { AgentName, SessionInfo } from "../types.js";
import { overWholeFileLimit, WHOLE_FILE_LIMIT } from "../wholeFileLimit.js";
import { activePath } from "./activePath.js";
import { collectItems, entryTimes, sessionInfoName } from "./collectItems.js";
import type { PiEntry } from "./entryItems.js";
import { sessionIdFromPath } from "./header.js";
import { type PiResumeState, type PiTitles, resolveTitle } from "./piState.js";
import { type PiRecords, splitRecords } from "./splitRecords.js";
import { subagentParent } from "./subagentParent.js";

/**
 * Reads a whole pi / omp session file: v1 linear files in order, v2+ tree files along the active branch
 * (plus every `branch_summary`, which is all that remains of abandoned branches).
 */
export function readPiFile(file: string, agent: AgentName, limit = WHOLE_FILE_LIMIT): ReadResult {
  let lines: JsonLinesRead;
  let mtime: number;
  try {
    // A tree's active branch is known only from the whole file: it is read whole, within a limit.
    const tooLarge = overWholeFileLimit(file, limit);
    if (tooLarge) return { sessions: [], problems: [tooLarge], skipped: 0 };
    mtime = statSync(file).mtimeMs;
    lines = readJsonLines(file);
  } catch (error) {
    return { sessions: [], problems: [{ file, reason: `unreadable: ${errorMessage(error)}` }], skipped: 0 };
  }
  const split = splitRecords(lines.records, file);
  const problems = [...lines.problems, ...split.problems];
  // Nothing complete yet (an empty file or one torn line): read it whole once it has content.
  if (!split.header && split.entries.length === 0) return { sessions: [], problems, skipped: 0 };
  if (!split.header) problems.push({ file, line: 1, reason: "no session header; session id taken from the file name" });

  const tree = (split.header?.version ?? 1) >= 2 || split.entries.some((entry) => entry.id !== undefined);
  const path = tree ? activePath(split.entries, file) : undefined;
  const keep = path ? (entry: PiEntry) => entry.type === "branch_summary" || path.onPath.has(entry) : undefined;
  const collected = collectItems(split.entries, file, { tree, ...(keep ? { keep } : {}) });
  problems.push(...(path?.problems ?? []), ...collected.problems);

  const titles: PiTitles = {};
  if (split.titleSlot) titles.slot = split.titleSlot;
  const info = sessionInfoName(split.entries);
  if (info) titles.info = info;
  if (split.header?.title) titles.header = split.header.title;
  const session = sessionInfo({ file, agent, split, titles, mtime });
  const tip = tree ? ([...split.entries].reverse().find((entry) => entry.id !== undefined)?.id ?? null) : null;
  const state: PiResumeState = { session, titles, tree, tip, ...(split.sawTitleSlot ? { titleSlot: true } : {}) };
  return {
    sessions: [{ session, items: collected.items }],
    problems,
    skipped: collected.skipped,
    ...resumeAfter(lines, state),
  };
}

function sessionInfo(input: {
  file: string;
  agent: AgentName;
  split: PiRecords;
  titles: PiTitles;
  mtime: number;
}): SessionInfo {
  const { file, agent, split, titles, mtime } = input;
  const header = split.header;
  const parent = subagentParent(file);
  const times = entryTimes(split.entries);
  const startedAt = header?.startedAt ?? times.first ?? mtime;
  const session: SessionInfo = {
    // A subagent without a header falls back to `<parent>:<task>` so task ids cannot collide across parents.
    id: header?.id ?? (parent ? `${parent}:${sessionIdFromPath(file)}` : sessionIdFromPath(file)),
    agent,
    kind: parent ? "subagent" : "interactive",
    cwd: header?.cwd ?? null,
    startedAt,
    updatedAt: Math.max(startedAt, times.last ?? mtime),
  };
  const title = resolveTitle(titles);
  if (title) session.title = title;
  const parentId = parent ?? (header?.forkedFrom ? sessionIdFromPath(header.forkedFrom) : undefined);
  if (parentId) session.parentId = parentId;
  return session;
}
