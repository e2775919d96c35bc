import { parseTime } from "../../util/clock.js";
import { asRecord, asString, type JsonLine } from "../jsonl.js";

/** The fields of a Claude Code transcript line that the adapter reads, pulled out of untrusted JSON once. */
export interface ClaudeLine {
  line: number;
  type: string;
  subtype?: string;
  uuid?: string;
  /** null at a root (and on compact_boundary, which links back through logicalParentUuid instead). */
  parentUuid?: string | null;
  logicalParentUuid?: string;
  sessionId?: string;
  agentId?: string;
  isSidechain: boolean;
  isMeta: boolean;
  isCompactSummary: boolean;
  cwd?: string;
  gitBranch?: string;
  entrypoint?: string;
  ts?: number;
  /** `message.id` of assistant lines: one API response is split over several lines sharing it. */
  messageId?: string;
  /** `message.content`: a string or an array of blocks. */
  content?: unknown;
  /** The prompt of a `queued_command` attachment the person typed while the agent worked (see queuedPrompt). */
  queuedPrompt?: unknown;
}

export function toClaudeLine(record: JsonLine): ClaudeLine | undefined {
  const value = asRecord(record.value);
  const type = asString(value?.type);
  if (value === undefined || type === undefined) return undefined;
  const message = asRecord(value.message);
  const line: ClaudeLine = {
    line: record.line,
    type,
    isSidechain: value.isSidechain === true,
    isMeta: value.isMeta === true,
    isCompactSummary: value.isCompactSummary === true,
    content: message?.content,
  };
  assignStrings(line, value, ["subtype", "uuid", "logicalParentUuid", "sessionId", "cwd", "gitBranch", "entrypoint"]);
  const agentId = value.agentId;
  if (typeof agentId === "string" || typeof agentId === "number") line.agentId = String(agentId);
  if (value.parentUuid === null || typeof value.parentUuid === "string") line.parentUuid = value.parentUuid;
  const ts = parseTime(value.timestamp);
  if (ts !== undefined) line.ts = ts;
  const messageId = asString(message?.id);
  if (messageId) line.messageId = messageId;
  const queued = type === "attachment" ? queuedPrompt(asRecord(value.attachment)) : undefined;
  if (queued !== undefined) line.queuedPrompt = queued;
  return line;
}

/**
 * A message the person typed while the agent worked is written twice: `queue-operation` records track the
 * queue (`enqueue` with its text, then `dequeue`, `remove` or `popAll`), and where Claude Code hands it to
 * the agent mid-turn it writes a `queued_command` attachment in the conversation chain (2.1.x). The
 * attachment is the delivery, at its place in the turn; it is the one read. One dequeued at a turn's end
 * arrives as an ordinary user line. Attachments of other origins (task notifications, messages from other
 * agents) are not the person's words.
 */
function queuedPrompt(attachment: Record<string, unknown> | undefined): unknown {
  if (attachment?.type !== "queued_command" || attachment.isMeta === true) return undefined;
  const mode = attachment.commandMode;
  if (mode !== undefined && mode !== "prompt") return undefined;
  const origin = attachment.origin;
  const kind = typeof origin === "string" ? origin : asString(asRecord(origin)?.kind);
  if (origin !== undefined && kind !== "human") return undefined;
  return attachment.prompt;
}

type StringField = "subtype" | "uuid" | "logicalParentUuid" | "sessionId" | "cwd" | "gitBranch" | "entrypoint";

function assignStrings(line: ClaudeLine, value: Record<string, unknown>, fields: StringField[]): void {
  for (const field of fields) {
    const text = asString(value[field]);
    if (text) line[field] = text;
  }
}

/** Where a line hangs in the conversation tree: its parent, or across a compaction its logical parent. */
export function parentRef(line: ClaudeLine): string | undefined {
  return line.parentUuid ?? line.logicalParentUuid;
}

/** User lines that only carry tool results: the harness answering a tool call, not the person typing. */
export function isToolResultOnly(line: ClaudeLine): boolean {
  const content = line.content;
  return (
    line.type === "user" &&
    Array.isArray(content) &&
    content.length > 0 &&
    content.every((block) => asRecord(block)?.type === "tool_result")
  );
}

export function isConversational(line: ClaudeLine): boolean {
  return line.type === "user" || line.type === "assistant" || line.type === "system";
}
