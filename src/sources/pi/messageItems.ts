import { asRecord, asString } from "../jsonl.js";
import { contentText } from "./contentText.js";
import type { RecordItems } from "./recordItems.js";

/**
 * Adds the items of one pi AgentMessage (`{"type":"message","message":{role,…}}`).
 * Returns false when the role is one memory does not keep (system prompts, hidden extension messages,
 * roles added by later builds), so the caller can count the entry as skipped.
 */
export function addMessageItems(message: Record<string, unknown>, out: RecordItems, callKey: string): boolean {
  switch (message.role) {
    case "user":
      out.add("user", contentText(message.content));
      return true;
    case "assistant":
      addAssistant(message, out);
      return true;
    case "toolResult":
      out.add("tool_result", contentText(message.content), {
        callId: asString(message.toolCallId),
        tool: asString(message.toolName),
        isError: message.isError === true,
      });
      return true;
    case "bashExecution":
      addBashExecution(message, out, callKey);
      return true;
    case "custom":
    case "hookMessage":
      // Extension messages: only those shown to the user are part of the conversation a person remembers.
      if (message.display !== true) return false;
      out.add("system", contentText(message.content));
      return true;
    default:
      return false;
  }
}

function addAssistant(message: Record<string, unknown>, out: RecordItems): void {
  if (!Array.isArray(message.content)) {
    out.add("assistant", contentText(message.content));
    return;
  }
  for (const value of message.content) {
    const part = asRecord(value);
    if (part?.type === "text") out.add("assistant", asString(part.text) ?? "");
    else if (part?.type === "toolCall") {
      out.add("tool_call", JSON.stringify(part.arguments ?? {}), {
        callId: asString(part.id),
        tool: asString(part.name),
      });
    }
    // Thinking parts are the model's scratch work, not something said: dropped on purpose.
  }
}

/** A user `!command`: one call and its output, paired under the entry's own key (the record has no call id). */
function addBashExecution(message: Record<string, unknown>, out: RecordItems, callKey: string): void {
  out.add("tool_call", asString(message.command) ?? "", { tool: "bash", callId: callKey });
  const exitCode = message.exitCode;
  const failed = message.cancelled === true || (typeof exitCode === "number" && exitCode !== 0);
  out.add("tool_result", asString(message.output) ?? "", { tool: "bash", callId: callKey, isError: failed });
}
