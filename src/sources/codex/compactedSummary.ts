import { asRecord, asString } from "../jsonl.js";

/**
 * The summary a `compacted` rollout line carries, or "" when Codex kept none that can be read.
 *
 * Record shapes (openai/codex, `codex-rs/protocol/src/protocol.rs` CompactedItem and
 * `codex-rs/protocol/src/models.rs` ResponseItem):
 * - Local compaction (`codex-rs/core/src/compact.rs`) writes `{message: <summary>, replacement_history}`:
 *   the summary is the message, prefixed by Codex's handoff sentence (`templates/compact/summary_prefix.md`).
 * - Remote compaction (`codex-rs/core/src/compact_remote.rs`, the default with OpenAI's models) writes
 *   `{message: "", replacement_history: [...]}`. Its summary is a `compaction` / `context_compaction` item
 *   (alias `compaction_summary`) holding only `encrypted_content`, which only OpenAI's servers can read:
 *   there is nothing to keep. Some builds instead put the summary in the replacement history as a user
 *   message that starts with the handoff sentence (or whose id starts `msg_compaction_summary`); that
 *   one is read.
 */
export function compactedSummary(payload: Record<string, unknown>): string {
  const message = asString(payload.message)?.trim() ?? "";
  if (message !== "") return message;
  const history = Array.isArray(payload.replacement_history) ? payload.replacement_history : [];
  for (let index = history.length - 1; index >= 0; index--) {
    const summary = summaryMessageText(asRecord(history[index]));
    if (summary !== undefined) return summary;
  }
  return "";
}

/** Codex's handoff sentence, the opening of every summary it writes (`templates/compact/summary_prefix.md`). */
const HANDOFF_OPENING = "Another language model started to solve this problem and produced a summary";

function summaryMessageText(item: Record<string, unknown> | undefined): string | undefined {
  if (item?.type !== "message" || item.role !== "user" || !Array.isArray(item.content)) return undefined;
  const text = item.content
    .map((part) => asString(asRecord(part)?.text) ?? "")
    .join("\n")
    .trim();
  const id = asString(item.id) ?? "";
  return text.startsWith(HANDOFF_OPENING) || id.startsWith("msg_compaction_summary") ? text : undefined;
}
