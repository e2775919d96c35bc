import { readFileSync } from "node:fs";
import { errorMessage } from "../../util/errors.js";
import { asRecord } from "../jsonl.js";
import type { GeminiConversation } from "./conversation.js";

/**
 * A pre-v0.39 chat: one JSON document `{sessionId, projectHash, startTime, lastUpdated, messages[], …}`,
 * rewritten whole on every update. Items get line 0 (a document has no meaningful line; keys carry the
 * message id). Throws only when the file cannot be read at all.
 */
export function readLegacyJson(file: string): GeminiConversation {
  const conversation: GeminiConversation = { meta: {}, messages: [], problems: [], skipped: 0 };
  let document: Record<string, unknown> | undefined;
  try {
    document = asRecord(JSON.parse(readFileSync(file, "utf8")));
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    conversation.problems.push({ file, reason: `malformed JSON document (${errorMessage(error)})` });
    return conversation;
  }
  if (!document) {
    conversation.problems.push({ file, reason: "not a chat record (expected a JSON object)" });
    return conversation;
  }
  const { messages, ...meta } = document;
  conversation.meta = meta;
  if (!Array.isArray(messages)) {
    conversation.problems.push({ file, reason: "chat record without a messages array" });
    return conversation;
  }
  messages.forEach((value, index) => {
    const record = asRecord(value);
    if (!record) {
      conversation.problems.push({ file, reason: `message ${index + 1} is not an object` });
      return;
    }
    const key = typeof record.id === "string" ? record.id : `m${index + 1}`;
    conversation.messages.push({ key, record, line: 0 });
  });
  return conversation;
}
