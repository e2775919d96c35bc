import { sessionItem } from "../itemDraft.js";
import type { ItemRole, SessionItem } from "../types.js";

/** Where the items of one transcript record come from. */
export interface RecordOrigin {
  /** Stable key of the record: the entry id in tree files, `L<line>` in linear ones. */
  key: string;
  file: string;
  line: number;
  ts?: number;
}

export type ItemExtra = Pick<SessionItem, "tool" | "callId" | "isError" | "ts">;

/**
 * Collects the items one record yields. The first keeps the record's key and later ones get `#2`, `#3`,
 * so a full re-read of the same record reproduces the same keys. Text is trimmed; empty items are dropped
 * because they carry nothing to remember.
 */
export class RecordItems {
  readonly items: SessionItem[] = [];

  constructor(private readonly origin: RecordOrigin) {}

  add(role: ItemRole, text: string, extra: ItemExtra = {}): void {
    const trimmed = text.trim();
    if (trimmed.length === 0) return;
    const position = this.items.length + 1;
    const key = position === 1 ? this.origin.key : `${this.origin.key}#${position}`;
    const origin = { file: this.origin.file, line: this.origin.line };
    const item = sessionItem(key, role, trimmed, origin, extra);
    item.ts = extra.ts ?? this.origin.ts;
    this.items.push(item);
  }
}
