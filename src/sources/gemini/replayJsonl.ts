import type { JsonLine } from "../jsonl.js";
import { asRecord } from "../jsonl.js";
import type { GeminiConversation, GeminiMessage } from "./conversation.js";

/**
 * Replays a v0.39+ JSONL chat the way Gemini CLI rebuilds it in memory: a message id seen again replaces the
 * earlier version in place (last occurrence wins), `{"$set":{…}}` patches the metadata and, with `messages`,
 * replaces the whole history (later lines still apply on top), and `{"$rewindTo": id}` drops that message and
 * everything after it. A rewind to an unknown id empties the history, as the CLI's loader does; it is
 * reported because the CLI itself never writes one.
 */
export function replayJsonl(records: JsonLine[], file: string): GeminiConversation {
  const conversation: GeminiConversation = { meta: {}, messages: [], problems: [], skipped: 0 };
  const messages = new Map<string, GeminiMessage>();
  const seen = new Set<string>();
  for (const { line, value } of records) {
    const record = asRecord(value);
    const patch = asRecord(record?.$set);
    if (!record) {
      conversation.problems.push({ file, line, reason: "not a JSON object" });
    } else if (typeof record.$rewindTo === "string") {
      if (!rewind(messages, record.$rewindTo)) {
        conversation.problems.push({
          file,
          line,
          reason: `rewind to unknown message ${record.$rewindTo}; history cleared`,
        });
      }
    } else if (typeof record.id === "string") {
      messages.set(record.id, { key: record.id, record, line });
      seen.add(record.id);
    } else if (patch) {
      const { messages: history, ...metadata } = patch;
      conversation.meta = { ...conversation.meta, ...metadata };
      if (Array.isArray(history)) replaceHistory(messages, history, { line, seen });
    } else if (typeof record.sessionId === "string") {
      conversation.meta = { ...conversation.meta, ...record };
    } else {
      conversation.skipped += 1;
    }
  }
  conversation.messages = [...messages.values()];
  return conversation;
}

function rewind(messages: Map<string, GeminiMessage>, id: string): boolean {
  if (!messages.has(id)) {
    messages.clear();
    return false;
  }
  let found = false;
  for (const key of [...messages.keys()]) {
    found ||= key === id;
    if (found) messages.delete(key);
  }
  return true;
}

function replaceHistory(
  messages: Map<string, GeminiMessage>,
  history: unknown[],
  at: { line: number; seen: Set<string> },
): void {
  messages.clear();
  history.forEach((value, index) => {
    const record = asRecord(value);
    if (!record) return;
    // Every written message has an id; the position keeps an odd one distinct and stable across reads.
    const key = typeof record.id === "string" ? record.id : `L${at.line}#${index + 1}`;
    const inserted = !at.seen.has(key);
    messages.set(key, { key, record, line: at.line, ...(inserted ? { inserted } : {}) });
    at.seen.add(key);
  });
}
