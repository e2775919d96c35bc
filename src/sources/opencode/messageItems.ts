import { parseTime } from "../../util/clock.js";
import { type ItemDraft, pushItem } from "../itemDraft.js";
import { asRecord, asString } from "../jsonl.js";
import type { ItemRole, SessionItem } from "../types.js";
import type { OcMessage, OcPart } from "./ocTypes.js";

export interface OcItems {
  items: SessionItem[];
  skipped: number;
}

/**
 * Items of one session's messages, in order. Text parts become user / assistant items, except in the
 * assistant message marked `summary: true`, whose text is the compaction summary. One tool part holds both
 * the call and its result (keys `<part id>:call` / `:result`). Synthetic or ignored text, reasoning, steps,
 * snapshots, patches, files and the `compaction` marker part are counted as skipped.
 */
export function messageItems(messages: OcMessage[]): OcItems {
  const result: OcItems = { items: [], skipped: 0 };
  for (const message of messages) {
    const role = message.data.role;
    const textRole: ItemRole | undefined =
      role === "user"
        ? "user"
        : role !== "assistant"
          ? undefined
          : message.data.summary === true
            ? "compaction"
            : "assistant";
    for (const part of message.parts) {
      const before = result.items.length;
      if (part.data.type === "text" && textRole) addText(part, textRole, message, result.items);
      else if (part.data.type === "tool") addTool(part, message, result.items);
      if (result.items.length === before) result.skipped += 1;
    }
  }
  return result;
}

function addText(part: OcPart, role: ItemRole, message: OcMessage, items: SessionItem[]): void {
  // Synthetic text is harness-generated (file contents, tool notes); ignored text was withdrawn by the user.
  if (part.data.synthetic === true || part.data.ignored === true) return;
  const ts = parseTime(asRecord(part.data.time)?.start) ?? message.created;
  push(items, part, { key: part.id, role, text: asString(part.data.text) ?? "", ts });
}

function addTool(part: OcPart, message: OcMessage, items: SessionItem[]): void {
  const state = asRecord(part.data.state) ?? {};
  const time = asRecord(state.time);
  const shared = { tool: asString(part.data.tool), callId: asString(part.data.callID) };
  const input = state.input ?? {};
  const started = parseTime(time?.start) ?? message.created;
  push(items, part, { ...shared, key: `${part.id}:call`, role: "tool_call", text: JSON.stringify(input), ts: started });
  const ended = parseTime(time?.end) ?? started;
  if (state.status === "completed") {
    // A shell command that exited non-zero still completes as a tool call: its exit code is kept in
    // the part's metadata (`metadata.exit` of OpenCode's bash tool), not in the output text.
    const exit = asRecord(state.metadata)?.exit;
    push(items, part, {
      ...shared,
      key: `${part.id}:result`,
      role: "tool_result",
      text: asText(state.output),
      isError: typeof exit === "number" && exit !== 0,
      ts: ended,
    });
  } else if (state.status === "error") {
    push(items, part, {
      ...shared,
      key: `${part.id}:result`,
      role: "tool_result",
      text: asText(state.error),
      isError: true,
      ts: ended,
    });
  }
  // pending / running: no result yet; the next read of the database brings it.
}

function asText(value: unknown): string {
  if (typeof value === "string") return value;
  return value === undefined || value === null ? "" : JSON.stringify(value);
}

function push(items: SessionItem[], part: OcPart, draft: ItemDraft): void {
  pushItem(items, draft, { file: part.file, line: 0 });
}
