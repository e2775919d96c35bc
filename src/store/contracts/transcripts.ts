import type { EvidenceItem } from "../types/memoryRecord.js";

/** The collected session items a memory's provenance points at (recall's `expand`). */
export interface TranscriptRepo {
  /** Items `from..to` (sequence numbers) of a session, at most `limit`. */
  items(sessionId: string, from: number, to: number, limit: number): EvidenceItem[];
}
