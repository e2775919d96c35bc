/**
 * OpenCode's session / message / part records, the same whether they come from `opencode.db` rows or the
 * legacy `storage/` JSON tree. `data` is the message or part JSON (the DB omits ids from it; they are
 * re-added from the columns here).
 */
export interface OcPart {
  id: string;
  data: Record<string, unknown>;
  /** The file the part was read from, and 0: DB rows and JSON documents have no meaningful line. */
  file: string;
}

export interface OcMessage {
  id: string;
  /** Epoch ms from the row's `time_created` or the JSON's `time.created`. */
  created?: number;
  data: Record<string, unknown>;
  /** Ordered by part id (ids are time-sortable). */
  parts: OcPart[];
}

export interface OcSession {
  id: string;
  parentId?: string;
  directory?: string;
  title?: string;
  created?: number;
  updated?: number;
}
