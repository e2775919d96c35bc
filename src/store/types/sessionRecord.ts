import type { AgentName, ItemRole, SessionKind } from "../../sources/types.js";

/** A session as stored. Item ids (not sequence numbers) are the watermarks of the collection loop. */
export interface SessionRecord {
  id: string;
  agent: AgentName;
  kind: SessionKind;
  cwd: string | null;
  projectKey: string | null;
  gitBranch: string | null;
  gitCommit: string | null;
  gitRemote: string | null;
  title: string | null;
  parentId: string | null;
  sourcePath: string | null;
  startedAt: number;
  updatedAt: number;
  endedAt: number | null;
  contentHash: string | null;
  /** Item id of the newest item when the session was marked for processing; null = nothing pending. */
  invalidatedAt: number | null;
  /** Item id up to which the session has been processed; null = never. */
  processedUntil: number | null;
  createdAt: number;
}

export interface ItemRecord {
  id: number;
  sessionId: string;
  seq: number;
  key: string;
  role: ItemRole;
  text: string;
  tool: string | null;
  callId: string | null;
  isError: boolean;
  /** A tool result whose outcome the transcript does not show: neither worked nor failed. */
  outcomeUnknown?: boolean;
  ts: number | null;
  /** The file the item was read from; null when it is the session's own file (`sourcePath`) or unknown. */
  originFile: string | null;
  originLine: number | null;
}
