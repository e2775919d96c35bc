import type { ItemRecord } from "../../collection/types.js";
import { guardText } from "../../redact/index.js";
import { tokenCount, truncateToTokens } from "../../text/tokens.js";
import { itemsInMemory, type SessionItems } from "./sessionItems.js";

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

const MEMORY_ROLES: ReadonlySet<string> = new Set(["user", "assistant", "tool_call", "tool_result", "compaction"]);
/** A single message can still be huge (a pasted log); it gets a generous but bounded share. */
const MESSAGE_MAX_TOKENS = 4000;

/**
 * Turns a session's items into the data the extractor sees: only memory-relevant items, tool outputs
 * clipped one by one, secrets redacted, then cut at item boundaries to the budget keeping the start
 * (the task) and the end (the outcome) and saying how many items were left out between them. Only
 * the items that can be kept are read: from the start up to a third of the budget, back from the
 * end up to all of it; the middle of a long session is counted, never read.
 */
export function renderSession(input: SessionItems | readonly ItemRecord[], options: RenderOptions): RenderedSession {
  const items = "forward" in input ? input : itemsInMemory(input);
  const range = { itemFrom: items.firstId, itemTo: items.lastId };
  const window = readWindow(items, options);
  // Every token covers at least one byte: a session of at most `budget` bytes fits without counting.
  if (window.middle === 0 && window.bytes <= options.maxInputTokens) {
    const entries = [...window.head, ...window.tail];
    return { entries, json: toJson(entries), tokens: undefined, omitted: 0, ...range };
  }
  // Cut by a byte estimate, then check with the real tokenizer and tighten until the count fits. The
  // tokenizer then reads only what is kept (at most the budget), not the whole session.
  let target = options.maxInputTokens;
  let cut = cutToBudget(window, target * BYTES_PER_TOKEN);
  let tokens = tokenCount(cut.json);
  for (let attempt = 0; tokens > options.maxInputTokens && attempt < 6; attempt++) {
    target = Math.floor((target * options.maxInputTokens * 0.97) / tokens);
    cut = cutToBudget(window, target * BYTES_PER_TOKEN);
    tokens = tokenCount(cut.json);
  }
  return { entries: cut.entries, json: cut.json, tokens, omitted: cut.omitted, ...range };
}

/** A first guess of how many bytes one token covers in transcript JSON; the real count corrects it. */
const BYTES_PER_TOKEN = 3.6;

/**
 * The entries a cut can keep: from the start, up to the first entry past a third of the largest byte
 * budget (no head a cut takes reaches past it); from the end, up to the first past the whole budget
 * (nor does any tail). `middle` entries lie between, unread; 0 when the two walks met.
 */
interface Window {
  head: RenderedEntry[];
  headSizes: number[];
  /** In session order. */
  tail: RenderedEntry[];
  tailSizes: number[];
  middle: number;
  /** Bytes of the entries read. */
  bytes: number;
}

function readWindow(items: SessionItems, options: RenderOptions): Window {
  const budgetBytes = options.maxInputTokens * BYTES_PER_TOKEN;
  const window: Window = { head: [], headSizes: [], tail: [], tailSizes: [], middle: 0, bytes: 0 };
  let headBytes = 0;
  /** Position of the last item the forward walk read; undefined when it read them all. */
  let headEnd: number | undefined;
  for (const [position, item] of items.walk("start")) {
    if (!isMemoryItem(item)) continue;
    const [entry, size] = sized(item, options);
    window.head.push(entry);
    window.headSizes.push(size);
    headBytes += size;
    if (headBytes > Math.floor(budgetBytes / 3)) {
      headEnd = position;
      break;
    }
  }
  let tailBytes = 0;
  /** Position of the first item the backward walk read when it stopped short of the forward walk's. */
  let tailStart: number | undefined;
  if (headEnd !== undefined) {
    for (const [position, item] of items.walk("end")) {
      if (position <= headEnd) break;
      if (!isMemoryItem(item)) continue;
      const [entry, size] = sized(item, options);
      window.tail.push(entry);
      window.tailSizes.push(size);
      tailBytes += size;
      if (tailBytes > budgetBytes - 80) {
        tailStart = position;
        break;
      }
    }
  }
  window.tail.reverse();
  window.tailSizes.reverse();
  window.bytes = headBytes + tailBytes;
  if (headEnd !== undefined && tailStart !== undefined && tailStart > headEnd + 1) {
    window.middle = Math.max(0, items.countWithText(MEMORY_ROLES) - window.head.length - window.tail.length);
  }
  return window;
}

function isMemoryItem(item: ItemRecord): boolean {
  return MEMORY_ROLES.has(item.role) && item.text.trim().length > 0;
}

function sized(item: ItemRecord, options: RenderOptions): [RenderedEntry, number] {
  const entry = toEntry(item, options);
  return [entry, Buffer.byteLength(JSON.stringify(entry)) + 2];
}

/**
 * Keeps whole entries from the start (a third of the budget) and from the end (the rest). The walks
 * stop inside the window's head and tail (see Window), so the unread middle is only counted.
 */
function cutToBudget(window: Window, budgetBytes: number) {
  const { head: first, headSizes, tail: last, tailSizes, middle } = window;
  const total = first.length + middle + last.length;
  const at = <T>(index: number, inHead: readonly T[], inTail: readonly T[]): T => {
    if (index < first.length) return inHead[index]!;
    const tailIndex = index - first.length - middle;
    if (tailIndex < 0) throw new Error("renderSession: a cut reached the unread middle of the session");
    return inTail[tailIndex]!;
  };
  const sizeAt = (index: number) => at(index, headSizes, tailSizes);
  const headBudget = Math.floor(budgetBytes / 3);
  let used = 0;
  let head = 0;
  while (head < total && used + sizeAt(head) <= headBudget) used += sizeAt(head++);
  let tail = total;
  while (tail > head && used + sizeAt(tail - 1) <= budgetBytes - 80) used += sizeAt(--tail);
  const omitted = tail - head;
  const kept: RenderedEntry[] = first.slice(0, head);
  if (omitted > 0) kept.push({ id: 0, role: "note", text: `${omitted} items omitted here to fit the input budget` });
  for (let index = tail; index < total; index++) kept.push(at(index, first, last));
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
