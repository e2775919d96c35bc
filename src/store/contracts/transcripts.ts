import type { EvidenceItem } from "../types/memoryRecord.js";

/** A session's raw conversation, pushed with `remember`. */
export interface SessionTranscript {
  sessionKey: string;
  content: string;
  project: string | null;
  createdAt: number;
}

/** The collected session items a memory's provenance points at (recall's `expand`), and pushed transcripts. */
export interface TranscriptRepo {
  /** Items `from..to` (sequence numbers) of a session, at most `limit`. */
  items(sessionId: string, from: number, to: number, limit: number): EvidenceItem[];
  /** Keeps a session's transcript, redacted; false when the session already has one (the first is kept). */
  store(transcript: { sessionKey: string; content: string; project: string | null; now: number }): boolean;
  /** The transcripts of these sessions, by key. */
  transcripts(sessionKeys: string[]): Map<string, SessionTranscript>;
}
