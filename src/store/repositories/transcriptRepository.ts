import type { Database } from "better-sqlite3";
import { guardOptional, guardText } from "../../redact/guard.js";
import type { SessionTranscript, TranscriptRepo } from "../contracts/transcripts.js";
import { cached } from "../statements.js";
import type { EvidenceItem } from "../types/memoryRecord.js";

/** Reads the collected session items a memory's provenance points at (for recall's `expand`); keeps pushed transcripts. */
export class TranscriptRepository implements TranscriptRepo {
  constructor(private readonly db: Database) {}

  /** Items `from..to` (sequence numbers) of a session, at most `limit`. */
  items(sessionId: string, from: number, to: number, limit: number): EvidenceItem[] {
    return cached(
      this.db,
      "SELECT seq, role, text FROM items WHERE session_id = ? AND seq BETWEEN ? AND ? ORDER BY seq LIMIT ?",
    ).all(sessionId, from, to, limit) as EvidenceItem[];
  }

  /** Keeps a session's transcript, redacted (the guard runs here, whoever calls); the first one per key wins. */
  store(transcript: { sessionKey: string; content: string; project: string | null; now: number }): boolean {
    const info = cached(
      this.db,
      "INSERT OR IGNORE INTO session_transcripts (session_key, content, project, created_at) VALUES (?, ?, ?, ?)",
    ).run(
      guardText(transcript.sessionKey),
      guardText(transcript.content),
      guardOptional(transcript.project),
      transcript.now,
    );
    return info.changes > 0;
  }

  transcripts(sessionKeys: string[]): Map<string, SessionTranscript> {
    const out = new Map<string, SessionTranscript>();
    if (sessionKeys.length === 0) return out;
    const rows = cached(
      this.db,
      `SELECT session_key AS sessionKey, content, project, created_at AS createdAt FROM session_transcripts
         WHERE session_key IN (SELECT value FROM json_each(?))`,
    ).all(JSON.stringify(sessionKeys)) as SessionTranscript[];
    for (const row of rows) out.set(row.sessionKey, row);
    return out;
  }
}
