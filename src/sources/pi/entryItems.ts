import { parseTime } from "../../util/clock.js";
import { asRecord, asString } from "../jsonl.js";
import type { SessionItem } from "../types.js";
import { contentText } from "./contentText.js";
import { addMessageItems } from "./messageItems.js";
import { RecordItems } from "./recordItems.js";

/** One session entry (every line after the header) with where it was read. */
export interface PiEntry {
  line: number;
  type: string;
  /** v2+ tree files: 8-hex entry id and its parent (null at the root); absent in v1 linear files. */
  id?: string;
  parentId?: string | null;
  value: Record<string, unknown>;
}

export interface EntryOutcome {
  items: SessionItem[];
  /** True when the entry was read and deliberately yields nothing (settings changes, hidden messages). */
  skipped: boolean;
  problem?: string;
}

/**
 * Turns one entry into items. `compaction` and `branch_summary` both become compaction items: each stands
 * for conversation that is no longer in the model's context (compacted away, or left on an abandoned branch),
 * which is what the compaction role means to the rest of the pipeline.
 */
export function entryItems(entry: PiEntry, file: string, key: string): EntryOutcome {
  const message = asRecord(entry.value.message);
  const ts = parseTime(entry.value.timestamp) ?? parseTime(message?.timestamp);
  const out = new RecordItems({ key, file, line: entry.line, ...(ts === undefined ? {} : { ts }) });
  switch (entry.type) {
    case "message": {
      if (!message) return { items: [], skipped: false, problem: "message entry without a message object" };
      const kept = addMessageItems(message, out, key);
      return { items: out.items, skipped: !kept || out.items.length === 0 };
    }
    case "compaction":
    case "branch_summary":
      out.add("compaction", asString(entry.value.summary) ?? "");
      break;
    case "custom_message":
      // In the model's context either way, but only `display: true` ones were part of the visible conversation.
      if (entry.value.display === true) out.add("system", contentText(entry.value.content));
      break;
    default:
      // model_change, thinking_level_change, label, session_info, custom (extension state) and types added
      // by later builds: metadata, not conversation.
      break;
  }
  return { items: out.items, skipped: out.items.length === 0 };
}
