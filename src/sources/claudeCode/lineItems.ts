import { sha256 } from "../../util/hash.js";
import { sessionItem } from "../itemDraft.js";
import { asRecord, asString } from "../jsonl.js";
import type { SessionItem } from "../types.js";
import type { ClaudeLine } from "./claudeLine.js";
import { cleanUserText, interruptionMarker, localCommandOutput, stripSystemReminders } from "./userText.js";

/** Collects items across lines; `tools` maps open tool_use ids to tool names (carried across reads). */
export interface ItemSink {
  file: string;
  items: SessionItem[];
  tools: Record<string, string>;
  /** Keys already produced in this read: a repeated assistant block is written once. */
  keys: Set<string>;
}

type Fields = Omit<SessionItem, "key" | "origin" | "ts">;

/**
 * Turns one conversational line into items, one per content block, and returns how many it added.
 * Meta lines, thinking blocks, images and empty text add none.
 */
export function addLineItems(sink: ItemSink, line: ClaudeLine): number {
  const before = sink.items.length;
  if (line.type === "user" && !line.isMeta) addUserLine(sink, line);
  else if (line.type === "assistant") addAssistantLine(sink, line);
  else if (line.queuedPrompt !== undefined) {
    add(sink, line, `L${line.line}`, { role: "user", text: cleanUserText(blocksText(line.queuedPrompt)) });
  }
  return sink.items.length - before;
}

function addUserLine(sink: ItemSink, line: ClaudeLine): void {
  const content = line.content;
  if (line.isCompactSummary) {
    add(sink, line, `L${line.line}`, { role: "compaction", text: blocksText(content) });
    return;
  }
  if (typeof content === "string") {
    add(sink, line, `L${line.line}`, userText(content));
    return;
  }
  if (!Array.isArray(content)) return;
  content.forEach((value, index) => {
    const block = asRecord(value);
    const key = `L${line.line}.${index}`;
    if (block?.type === "text") add(sink, line, key, userText(asString(block.text) ?? ""));
    else if (block?.type === "tool_result") add(sink, line, key, toolResult(sink, block));
  });
}

/**
 * A user text block: what the person typed, or, as a system item, Claude Code's interruption note or a
 * local command's output.
 */
function userText(text: string): Fields {
  const system = interruptionMarker(text) ?? localCommandOutput(text);
  return system === undefined ? { role: "user", text: cleanUserText(text) } : { role: "system", text: system };
}

function toolResult(sink: ItemSink, block: Record<string, unknown>): Fields {
  const callId = asString(block.tool_use_id);
  const tool = callId === undefined ? undefined : sink.tools[callId];
  if (callId !== undefined) delete sink.tools[callId];
  return {
    role: "tool_result",
    text: stripSystemReminders(blocksText(block.content)),
    ...(tool === undefined ? {} : { tool }),
    ...(callId === undefined ? {} : { callId }),
    ...(typeof block.is_error === "boolean" ? { isError: block.is_error } : {}),
  };
}

function addAssistantLine(sink: ItemSink, line: ClaudeLine): void {
  if (!Array.isArray(line.content)) return;
  // Keys come from the API message id, not the line, so a block written twice updates one item.
  const message = line.messageId ?? `L${line.line}`;
  line.content.forEach((value, index) => {
    const block = asRecord(value);
    if (block?.type === "text") {
      const text = (asString(block.text) ?? "").trim();
      if (text !== "") add(sink, line, `${message}:text:${sha256(text).slice(0, 16)}`, { role: "assistant", text });
    } else if (block?.type === "tool_use") {
      const callId = asString(block.id);
      const tool = asString(block.name) ?? "tool";
      if (callId !== undefined) sink.tools[callId] = tool;
      const fields: Fields = { role: "tool_call", text: JSON.stringify(block.input ?? {}), tool };
      add(sink, line, `${message}:${callId ?? `block${index}`}`, callId === undefined ? fields : { ...fields, callId });
    }
  });
}

function add(sink: ItemSink, line: ClaudeLine, key: string, fields: Fields): void {
  const text = fields.text.trim();
  if (text.length === 0 || sink.keys.has(key)) return;
  sink.keys.add(key);
  const origin = { file: sink.file, line: line.line };
  const item = sessionItem(key, fields.role, text, origin, fields);
  item.ts = line.ts;
  sink.items.push(item);
}

/** Text of a string or of an array of blocks (text blocks joined, images noted). */
function blocksText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const parts: string[] = [];
  for (const value of content) {
    const block = asRecord(value);
    if (block?.type === "text") parts.push(asString(block.text) ?? "");
    else if (block?.type === "image") parts.push("[image]");
  }
  return parts.join("\n");
}
