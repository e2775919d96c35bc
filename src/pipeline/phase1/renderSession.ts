import { redactText } from "../../redact/index.js";
import type { ItemRecord } from "../../sessions/types.js";
import { tokenCount, truncateToTokens } from "../../util/tokens.js";

export interface RenderOptions {
  /** Budget for the whole rendered session. */
  maxInputTokens: number;
  /** Each tool output is clipped to this many tokens first. */
  toolOutputMaxTokens: number;
}

export interface RenderedEntry {
  id: number;
  role: string;
  tool?: string;
  text: string;
}

export interface RenderedSession {
  entries: RenderedEntry[];
  /** The entries as a JSON array: the prompt's quoted data section. */
  json: string;
  tokens: number;
  /** Items left out in the middle of the session to fit the budget. */
  omitted: number;
  itemFrom: number | null;
  itemTo: number | null;
}

const MEMORY_ROLES = new Set(["user", "assistant", "tool_call", "tool_result", "compaction"]);
/** A single message can still be huge (a pasted log); it gets a generous but bounded share. */
const MESSAGE_MAX_TOKENS = 4000;

/**
 * Turns a session's items into the data the extractor sees: only memory-relevant items, tool outputs
 * clipped one by one, secrets redacted, then cut at item boundaries to the budget keeping the start
 * (the task) and the end (the outcome) and saying how many items were left out between them.
 */
export function renderSession(items: readonly ItemRecord[], options: RenderOptions): RenderedSession {
  const entries = items
    .filter((item) => MEMORY_ROLES.has(item.role) && item.text.trim().length > 0)
    .map((item) => toEntry(item, options));
  const costs = entries.map((entry) => tokenCount(JSON.stringify(entry)) + 1);
  const total = costs.reduce((sum, cost) => sum + cost, 0);
  const range = { itemFrom: items[0]?.id ?? null, itemTo: items.at(-1)?.id ?? null };
  if (total <= options.maxInputTokens) {
    return { entries, json: toJson(entries), tokens: total, omitted: 0, ...range };
  }
  const headBudget = Math.floor(options.maxInputTokens / 3);
  let used = 0;
  let head = 0;
  while (head < entries.length && used + costs[head]! <= headBudget) used += costs[head++]!;
  let tail = entries.length;
  while (tail > head && used + costs[tail - 1]! <= options.maxInputTokens - 20) used += costs[--tail]!;
  const omitted = tail - head;
  const kept: RenderedEntry[] = [
    ...entries.slice(0, head),
    ...(omitted > 0 ? [{ id: 0, role: "note", text: `${omitted} items omitted here to fit the input budget` }] : []),
    ...entries.slice(tail),
  ];
  return { entries: kept, json: toJson(kept), tokens: used, omitted, ...range };
}

function toEntry(item: ItemRecord, options: RenderOptions): RenderedEntry {
  const isTool = item.role === "tool_result" || item.role === "tool_call";
  const limit = isTool ? options.toolOutputMaxTokens : MESSAGE_MAX_TOKENS;
  const text = clip(redactText(item.text.trim()), limit);
  return { id: item.id, role: item.role, ...(item.tool ? { tool: item.tool } : {}), text };
}

/** Keeps the head and the end of a long text: errors and results tend to sit at the end of outputs. */
function clip(text: string, maxTokens: number): string {
  const head = truncateToTokens(text, Math.ceil(maxTokens * 0.7));
  if (!head.truncated) return text;
  const tailChars = Math.max(0, Math.floor(maxTokens * 0.3) * 3);
  return `${head.text}\n[... clipped ...]\n${text.slice(text.length - tailChars)}`;
}

/** One entry per line: readable for a model, and JSON escaping keeps fake markers and tags inert. */
function toJson(entries: readonly RenderedEntry[]): string {
  return `[\n${entries.map((entry) => JSON.stringify(entry)).join(",\n")}\n]`;
}
