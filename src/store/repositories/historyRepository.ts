import type { Database } from "better-sqlite3";
import { guardDeep, guardOptional } from "../../redact/guard.js";
import type { HistoryRepo, NewHistoryEvent } from "../contracts/history.js";
import { cached } from "../statements.js";
import type { HistoryEvent } from "../types/memoryRecord.js";

export type { NewHistoryEvent };

interface HistoryRowDb {
  id: number;
  memory_id: number | null;
  event: string;
  old_content: string | null;
  new_content: string | null;
  who: string | null;
  reason: string | null;
  metadata: string | null;
  created_at: number;
}

/** Append-only audit of every change and every pipeline proposal. */
export class HistoryRepository implements HistoryRepo {
  constructor(private readonly db: Database) {}

  add(event: NewHistoryEvent): void {
    cached(
      this.db,
      `INSERT INTO memory_history (memory_id, event, old_content, new_content, who, reason, metadata, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      event.memoryId,
      event.event,
      guardOptional(event.oldContent ?? null),
      guardOptional(event.newContent ?? null),
      guardOptional(event.who ?? null),
      guardOptional(event.reason ?? null),
      event.metadata ? JSON.stringify(guardDeep(event.metadata)) : null,
      event.now,
    );
  }

  list(memoryId: number): HistoryEvent[] {
    const rows = cached(this.db, "SELECT * FROM memory_history WHERE memory_id = ? ORDER BY id").all(
      memoryId,
    ) as HistoryRowDb[];
    return rows.map(toEvent);
  }

  /** Recent events of one kind (pipeline audits have no single memory). */
  recent(event: string, limit: number): HistoryEvent[] {
    const rows = cached(this.db, "SELECT * FROM memory_history WHERE event = ? ORDER BY id DESC LIMIT ?").all(
      event,
      limit,
    ) as HistoryRowDb[];
    return rows.map(toEvent);
  }
}

function toEvent(row: HistoryRowDb): HistoryEvent {
  return {
    id: row.id,
    memoryId: row.memory_id,
    event: row.event,
    oldContent: row.old_content,
    newContent: row.new_content,
    who: row.who,
    reason: row.reason,
    metadata: row.metadata ? (JSON.parse(row.metadata) as Record<string, unknown>) : null,
    createdAt: row.created_at,
  };
}
