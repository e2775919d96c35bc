import type { HistoryEvent } from "../types/memoryRecord.js";

export interface NewHistoryEvent {
  memoryId: number | null;
  event: string;
  oldContent?: string | null;
  newContent?: string | null;
  who?: string | null;
  reason?: string | null;
  metadata?: Record<string, unknown>;
  now: number;
}

/** Append-only audit of every change and every pipeline proposal. */
export interface HistoryRepo {
  add(event: NewHistoryEvent): void;
  list(memoryId: number): HistoryEvent[];
  recent(event: string, limit: number): HistoryEvent[];
}
