import type { ItemRecord } from "../../collection/types.js";
import { guardText } from "../../redact/index.js";
import { tokenCount, truncateToTokens } from "../../text/tokens.js";

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
  /**
   * The agent recorded this tool result as a failure (an error flag or a non-zero exit). Some formats
   * keep the exit status apart from the output (Codex's unified exec header, omp's and Claude Code's
   * flags): without it a model must guess from the output whether a command worked.
   */
  failed?: true;
  text: string;
}

export interface RenderedSession {
  entries: RenderedEntry[];
  /** The entries as a JSON array: the prompt's quoted data section. */
  json: string;
  /** Real token count when the session had to be cut; undefined when it fit without counting. */
  tokens: number | undefined;
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
  const range = { itemFrom: items[0]?.id ?? null, itemTo: items.at(-1)?.id ?? null };
  const sizes = entries.map((entry) => Buffer.byteLength(JSON.stringify(entry)) + 2);
  const bytes = sizes.reduce((sum, size) => sum + size, 0);
  // Every token covers at least one byte: a session of at most `budget` bytes fits without counting.
  if (bytes <= options.maxInputTokens) {
    return { entries, json: toJson(entries), tokens: undefined, omitted: 0, ...range };
  }
  // Cut by a byte estimate, then check with the real tokenizer and tighten until the count fits. The
  // tokenizer then reads only what is kept (at most the budget), not the whole session.
  let target = options.maxInputTokens;
  let cut = cutToBudget(entries, sizes, target * BYTES_PER_TOKEN);
  let tokens = tokenCount(cut.json);
  for (let attempt = 0; tokens > options.maxInputTokens && attempt < 6; attempt++) {
    target = Math.floor((target * options.maxInputTokens * 0.97) / tokens);
    cut = cutToBudget(entries, sizes, target * BYTES_PER_TOKEN);
    tokens = tokenCount(cut.json);
  }
  return { entries: cut.entries, json: cut.json, tokens, omitted: cut.omitted, ...range };
}

/** A first guess of how many bytes one token covers in transcript JSON; the real count corrects it. */
const BYTES_PER_TOKEN = 3.6;

/** Keeps whole entries from the start (a third of the budget) and from the end (the rest). */
function cutToBudget(entries: readonly RenderedEntry[], sizes: readonly number[], budgetBytes: number) {
  const headBudget = Math.floor(budgetBytes / 3);
  let used = 0;
  let head = 0;
  while (head < entries.length && used + sizes[head]! <= headBudget) used += sizes[head++]!;
  let tail = entries.length;
  while (tail > head && used + sizes[tail - 1]! <= budgetBytes - 80) used += sizes[--tail]!;
  const omitted = tail - head;
  const kept: RenderedEntry[] = [
    ...entries.slice(0, head),
    ...(omitted > 0 ? [{ id: 0, role: "note", text: `${omitted} items omitted here to fit the input budget` }] : []),
    ...entries.slice(tail),
  ];
  return { entries: kept, json: toJson(kept), omitted };
}

function toEntry(item: ItemRecord, options: RenderOptions): RenderedEntry {
  const isTool = item.role === "tool_result" || item.role === "tool_call";
  const limit = isTool ? options.toolOutputMaxTokens : MESSAGE_MAX_TOKENS;
  // Stored items are guarded already; this also covers rows stored before the store guarded them.
  const text = clip(guardText(item.text.trim()), limit);
  return {
    id: item.id,
    role: item.role,
    ...(item.tool ? { tool: item.tool } : {}),
    ...(item.role === "tool_result" && item.isError ? { failed: true as const } : {}),
    text,
  };
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
