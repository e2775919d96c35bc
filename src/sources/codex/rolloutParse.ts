import { sessionItem } from "../itemDraft.js";
import type { SessionItem } from "../types.js";
import type { RolloutLine } from "./rolloutLine.js";
import type { CodexState } from "./rolloutState.js";

/** The mutable result of walking rollout lines; handlers add items to it and update its state. */
export interface RolloutParse {
  file: string;
  state: CodexState;
  items: SessionItem[];
  skipped: number;
  /** True when continuing from a stored offset: history rewrites then need a whole-file read. */
  resumed: boolean;
  /** Set when a resumed read met something that changes earlier items. */
  needsFullRead: boolean;
  firstTs?: number;
  lastTs?: number;
}

export type ItemFields = Omit<SessionItem, "key" | "origin" | "ts">;

/** Adds an item for `line` (one item per line, so the line number is a stable key); empty text adds none. */
export function pushItem(parse: RolloutParse, line: RolloutLine, fields: ItemFields): void {
  const text = fields.text.trim();
  if (text.length === 0) return;
  const origin = { file: parse.file, line: line.line };
  const item = sessionItem(`L${line.line}`, fields.role, text, origin, fields);
  item.ts = line.ts;
  parse.items.push(item);
}
