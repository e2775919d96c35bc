import type { SessionInfo } from "../types.js";
import type { OcSession } from "./ocTypes.js";

/** A child session (`parent_id`) is a task-tool subagent run; the cwd is the session's `directory`. */
export function sessionInfo(row: OcSession, fallbackTime: number): SessionInfo {
  const startedAt = row.created ?? fallbackTime;
  const session: SessionInfo = {
    id: row.id,
    agent: "opencode",
    kind: row.parentId ? "subagent" : "interactive",
    cwd: row.directory ? row.directory : null,
    startedAt,
    updatedAt: Math.max(startedAt, row.updated ?? fallbackTime),
  };
  if (row.title) session.title = row.title;
  if (row.parentId) session.parentId = row.parentId;
  return session;
}
