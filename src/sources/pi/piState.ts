import { asRecord, asString } from "../jsonl.js";
import { agentNames, type SessionInfo, type SessionKind } from "../types.js";

/** Title candidates, most authoritative first when resolved. */
export interface PiTitles {
  /** omp's title slot (rewritten in place as the session is renamed). */
  slot?: string;
  /** The latest `session_info` name (pi's /name). */
  info?: string;
  header?: string;
}

/** Carried between reads of one file so an append can be parsed without the lines before it. */
export interface PiResumeState {
  session: SessionInfo;
  titles: PiTitles;
  /** v2+ files form a tree; an append is only a continuation while it extends the current tip. */
  tree: boolean;
  tip: string | null;
  /** The file starts with omp's title slot, which is rewritten in place and so re-checked on resume. */
  titleSlot?: boolean;
}

export function resolveTitle(titles: PiTitles): string | undefined {
  return titles.slot ?? titles.info ?? titles.header;
}

const kinds: readonly SessionKind[] = ["interactive", "exec", "subagent", "internal"];

/** Validates state read back from the store; anything unexpected means "read the whole file again". */
export function parsePiState(value: unknown): PiResumeState | undefined {
  const state = asRecord(value);
  const session = asRecord(state?.session);
  const titles = asRecord(state?.titles);
  if (!state || !session || !titles || typeof state.tree !== "boolean") return undefined;
  const tip = state.tip === null ? null : asString(state.tip);
  const id = asString(session.id);
  const agent = agentNames.find((name) => name === session.agent);
  const kind = kinds.find((name) => name === session.kind);
  const cwd = session.cwd === null ? null : asString(session.cwd);
  const { startedAt, updatedAt } = session;
  if (tip === undefined || !id || !agent || !kind || cwd === undefined) return undefined;
  if (typeof startedAt !== "number" || typeof updatedAt !== "number") return undefined;
  const info: SessionInfo = { id, agent, kind, cwd, startedAt, updatedAt };
  const title = asString(session.title);
  if (title) info.title = title;
  const parentId = asString(session.parentId);
  if (parentId) info.parentId = parentId;
  const resumeState: PiResumeState = { session: info, titles: readTitles(titles), tree: state.tree, tip };
  if (state.titleSlot === true) resumeState.titleSlot = true;
  return resumeState;
}

function readTitles(titles: Record<string, unknown>): PiTitles {
  const result: PiTitles = {};
  const slot = asString(titles.slot);
  if (slot) result.slot = slot;
  const info = asString(titles.info);
  if (info) result.info = info;
  const header = asString(titles.header);
  if (header) result.header = header;
  return result;
}
