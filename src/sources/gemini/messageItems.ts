import { parseTime } from "../../util/clock.js";
import { type ItemDraft, pushItem } from "../itemDraft.js";
import { asRecord, asString } from "../jsonl.js";
import type { SessionItem } from "../types.js";
import type { GeminiMessage } from "./conversation.js";
import { partsText, toolResultText } from "./partsText.js";

export interface GeminiItems {
  items: SessionItem[];
  skipped: number;
}

/** The harness's environment bootstrap sent as the first user turn: context, not something the user said. */
const SESSION_CONTEXT = "<session_context>";

/**
 * Items of replayed messages: user text (the displayed form when the CLI kept one, i.e. before @file
 * expansion; a compaction item when the CLI inserted it in a history rewrite), gemini text, and each `toolCalls[]` entry as a call plus, once it has a result, its output.
 * info / error / warning records are UI notices and are counted as skipped.
 */
export function messageItems(messages: GeminiMessage[], file: string): GeminiItems {
  const result: GeminiItems = { items: [], skipped: 0 };
  for (const message of messages) {
    const before = result.items.length;
    const type = message.record.type;
    if (type === "user") addUser(message, file, result.items);
    else if (type === "gemini") addGemini(message, file, result.items);
    if (result.items.length === before) result.skipped += 1;
  }
  return result;
}

function addUser(message: GeminiMessage, file: string, items: SessionItem[]): void {
  const sent = partsText(message.record.content);
  if (sent.trimStart().startsWith(SESSION_CONTEXT)) return;
  const shown = partsText(message.record.displayContent);
  // A user turn the CLI inserted while rewriting history is its compression summary.
  const role = message.inserted ? "compaction" : "user";
  push(items, message, file, { key: message.key, role, text: shown.trim() ? shown : sent });
}

function addGemini(message: GeminiMessage, file: string, items: SessionItem[]): void {
  push(items, message, file, { key: message.key, role: "assistant", text: partsText(message.record.content) });
  const calls = Array.isArray(message.record.toolCalls) ? message.record.toolCalls : [];
  calls.forEach((value, index) => {
    const call = asRecord(value);
    if (!call) return;
    const callId = asString(call.id);
    const base = `${message.key}/${callId ?? index + 1}`;
    const tool = asString(call.name);
    const ts = parseTime(call.timestamp);
    const shared = { callId, tool, ts };
    push(items, message, file, {
      ...shared,
      key: `${base}:call`,
      role: "tool_call",
      text: JSON.stringify(call.args ?? {}),
    });
    if (call.result === null || call.result === undefined) return;
    const output = toolResultText(call.result);
    const display = typeof call.resultDisplay === "string" ? call.resultDisplay : "";
    push(items, message, file, {
      ...shared,
      key: `${base}:result`,
      role: "tool_result",
      text: output.text.trim() ? output.text : display,
      isError: output.isError || call.status === "error",
    });
  });
}

function push(items: SessionItem[], message: GeminiMessage, file: string, draft: ItemDraft): void {
  pushItem(items, { ...draft, ts: draft.ts ?? parseTime(message.record.timestamp) }, { file, line: message.line });
}
