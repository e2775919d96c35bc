import type { Database } from "better-sqlite3";
import type { TranscriptRepo } from "../contracts/transcripts.js";
import { cached } from "../statements.js";
import type { EvidenceItem } from "../types/memoryRecord.js";

/** Reads the collected session items a memory's provenance points at (for recall's `expand`). */
export class TranscriptRepository implements TranscriptRepo {
  constructor(private readonly db: Database) {}

  /** Items `from..to` (sequence numbers) of a session, at most `limit`. */
  items(sessionId: string, from: number, to: number, limit: number): EvidenceItem[] {
    return cached(
      this.db,
      "SELECT seq, role, text FROM items WHERE session_id = ? AND seq BETWEEN ? AND ? ORDER BY seq LIMIT ?",
    ).all(sessionId, from, to, limit) as EvidenceItem[];
  }
}
