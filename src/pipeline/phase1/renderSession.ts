import type { ItemRecord } from "../../collection/types.js";
import { guardText } from "../../redact/index.js";
import { tokenCount, truncateToTokens } from "../../text/tokens.js";
import { CommandRunReader } from "./offline/commands.js";
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
   * The tool result is a failure: the agent recorded it as one (an error flag or a non-zero exit, which
   * some formats keep apart from the output: Codex's unified exec header, omp's and Claude Code's
   * flags), or the command's output shows one with no flag (exit code N, timed out, panicked, a
   * sandbox denial), as the offline extractor's command reader tells it. Without it a model must guess
   * from the output whether a command worked, and a flagless sandbox failure reads like a success.
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
  /** Items left out to fit the budget (a note marks each gap). */
  omitted: number;
  itemFrom: number | null;
  itemTo: number | null;
}

const MEMORY_ROLES: ReadonlySet<string> = new Set([
  "user",
  "assistant",
  "tool_call",
  "tool_result",
  "compaction",
  "system",
]);
/**
 * What the model is told each stored role is. A "system" item is text the agent's harness showed or
 * noted: a hook's or an extension's message, a local command's output, Claude Code's note that the user
 * interrupted. It may state a fact of the repository (a branch policy, a sync step) or show that the
 * user stopped a step, but it is neither the user's words nor an instruction, and its role name says so.
 */
const RENDERED_ROLE: Readonly<Record<string, string>> = { system: "harness" };
/** An assistant message can still be huge (a pasted log); it gets a generous but bounded share. */
const MESSAGE_MAX_TOKENS = 4000;
/**
 * A window's always-kept items (its user messages and compaction summaries) fill at most this share
 * of the budget: the rest is left for what the agent said and did around them.
 */
const ALWAYS_KEPT_SHARE = 0.5;
/**
 * The one rule by which a user message or a compaction summary is clipped: alone, it is longer than
 * this share of one request's budget (19,200 tokens at the default 24,000). It then has a window of its
 * own, clipped to this share (head and end kept, with a marker that says why); the rest of the window
 * is left for what was said and done around it. Anything shorter is shown whole: its window holds
 * fewer other items instead.
 */
const SINGLE_ITEM_SHARE = 0.8;

/**
 * What is kept first when a session is over the budget. The user's words and the compaction
 * summaries (an earlier agent's curated memory of the session) carry most of what a future session
 * needs and cost little; then what the agent concluded and what went wrong; tool calls and their
 * ordinary outputs last, the newest first.
 */
export type RenderTier = 0 | 1 | 2;

/** One memory item as the selection sees it: no text, so a long session costs a few numbers per item. */
interface Outline {
  id: number;
  tier: RenderTier;
  size: number;
  /**
   * Tokens it costs a window when always kept, a possible gap note included: counted for user
   * messages and compaction summaries, estimated high for an assistant message (only the last one is
   * always kept), 0 for the rest.
   */
  tokens: number;
}

interface SessionOutline {
  items: Outline[];
  /** Tool results that are failures though no error flag says so (see RenderedEntry.failed). */
  failed: ReadonlySet<number>;
  /** The whole session's entries, while it is small enough to fit without counting. */
  small?: RenderedEntry[];
}

/**
 * Turns a session's items into the data the extractor sees: only memory-relevant items, tool outputs
 * clipped one by one, secrets redacted. A session over the budget is cut by priority, not by
 * position: every user message, every compaction summary and the last assistant message are kept,
 * then assistant text and failed results, then tool calls and outputs, newest first; a note says
 * where items were left out. One call: `renderWindows` splits a session whose always-kept items do
 * not fit.
 */
export function renderSession(input: SessionItems | readonly ItemRecord[], options: RenderOptions): RenderedSession {
  return renderWindows(input, options, { windows: false })[0]!;
}

/**
 * The session as one or more windows, in session order, each within the budget. A window closes when
 * its always-kept items reach half the budget (counted in tokens), so no user message or compaction
 * summary is ever left out, and none is clipped unless it alone is longer than SINGLE_ITEM_SHARE of
 * the budget; within a window the cut is by priority (see renderSession).
 * Items are read a page at a time: once to size them, once more to render what is kept.
 */
export function renderWindows(
  input: SessionItems | readonly ItemRecord[],
  options: RenderOptions,
  split: { windows: boolean } = { windows: true },
): RenderedSession[] {
  const items = "forward" in input ? input : itemsInMemory(input);
  const outline = outlineOf(items, options);
  // Every token covers at least one byte: a session of at most `budget` bytes fits without counting.
  if (outline.small) {
    const entries = outline.small;
    return [
      { entries, json: toJson(entries), tokens: undefined, omitted: 0, itemFrom: items.firstId, itemTo: items.lastId },
    ];
  }
  const ranges = split.windows
    ? windowRanges(outline.items, options.maxInputTokens * ALWAYS_KEPT_SHARE)
    : [{ from: 0, to: outline.items.length }];
  // Cut by a byte estimate, then count with the real tokenizer and scale each window's byte target by
  // what the count says, down when over the budget, up when far under it with items left out. The
  // best window that fits is kept; the tokenizer reads only what is kept, never the whole session.
  const budget = options.maxInputTokens;
  const targets = ranges.map(() => budget * BYTES_PER_TOKEN);
  const best: Array<{ window: RenderedSession; tokens: number } | undefined> = ranges.map(() => undefined);
  let pending = ranges.map((_, index) => index);
  for (let attempt = 0; attempt < 7 && pending.length > 0; attempt++) {
    const kept = pending.map((index) => select(outline.items, ranges[index]!, targets[index]!, split.windows));
    const rendered = renderKept(
      items,
      options,
      pending.map((index) => ranges[index]!),
      kept,
      outline.failed,
    );
    const next: number[] = [];
    for (const [at, index] of pending.entries()) {
      const window = rendered[at]!;
      const tokens = tokenCount(window.json);
      const previous = best[index];
      if (tokens <= budget && (!previous || previous.tokens > budget || tokens > previous.tokens))
        best[index] = { window, tokens };
      else if (!previous || previous.tokens > budget) best[index] = { window, tokens };
      const over = tokens > budget;
      const roomy = tokens < budget * 0.92 && window.omitted > 0;
      if (over || (roomy && attempt < 6)) {
        targets[index] = Math.floor((targets[index]! * budget * 0.97) / tokens);
        next.push(index);
      }
    }
    pending = next;
  }
  return best.map((entry, index) => ({
    ...entry!.window,
    tokens: entry!.tokens,
    // The first window starts at the session's start and the last ends at its end, whatever they hold.
    ...(index === 0 ? { itemFrom: items.firstId } : {}),
    ...(index === best.length - 1 ? { itemTo: items.lastId } : {}),
  }));
}

/** A first guess of how many bytes one token covers in transcript JSON; the real count corrects it. */
const BYTES_PER_TOKEN = 3.6;

/**
 * Sizes every memory item of the session in one forward read, keeping only its tier and size. While
 * the session is still small enough to fit whole without counting, the entries are kept too.
 */
function outlineOf(items: SessionItems, options: RenderOptions): SessionOutline {
  const outline: Outline[] = [];
  let small: RenderedEntry[] | undefined = [];
  let bytes = 0;
  let lastAssistant = -1;
  // A run's outcome is known at its last result, so failures read from the output are marked after the pass.
  const runs = new CommandRunReader();
  for (const item of items.forward()) {
    if (!isMemoryItem(item)) continue;
    runs.add(item);
    const [entry, size] = sized(item, options);
    if (item.role === "assistant") lastAssistant = outline.length;
    outline.push({ id: item.id, tier: tierOf(item), size, tokens: keptTokens(item, entry, size) });
    bytes += size;
    if (small && bytes <= options.maxInputTokens) small.push(entry);
    else small = undefined;
  }
  if (lastAssistant >= 0) outline[lastAssistant]!.tier = 0;
  const failed = new Set(
    runs.runs().flatMap((run) => (run.outcome === "failed" && run.resultItemId !== null ? [run.resultItemId] : [])),
  );
  for (const entry of outline) if (failed.has(entry.id) && entry.tier === 2) entry.tier = 1;
  if (!small) return { items: outline, failed };
  return { items: outline, failed, small: small.map((entry) => (failed.has(entry.id) ? markedFailed(entry) : entry)) };
}

function markedFailed(entry: RenderedEntry): RenderedEntry {
  const { text, ...rest } = entry;
  return { ...rest, failed: true, text };
}

function tierOf(item: ItemRecord): RenderTier {
  if (item.role === "user" || item.role === "compaction") return 0;
  if (item.role === "assistant" || (item.role === "tool_result" && item.isError)) return 1;
  return 2;
}

/** What an item costs a window when it is always kept (Outline.tokens). */
function keptTokens(item: ItemRecord, entry: RenderedEntry, size: number): number {
  if (item.role === "user" || item.role === "compaction") {
    return (clippedTokens.get(entry) ?? tokenCount(JSON.stringify(entry))) + NOTE_TOKENS;
  }
  // At least one byte per token, and a guess of two that is rarely beaten by transcript text.
  return item.role === "assistant" ? Math.ceil(size / 2) + NOTE_TOKENS : 0;
}

/**
 * Consecutive ranges of memory items whose always-kept items fit `share` tokens (at least one item
 * each). Counted in real tokens, so each window can keep all of them whatever the text.
 */
function windowRanges(outline: readonly Outline[], share: number): Array<{ from: number; to: number }> {
  const ranges: Array<{ from: number; to: number }> = [];
  let from = 0;
  let kept = 0;
  for (const [index, item] of outline.entries()) {
    const size = item.tier === 0 ? item.tokens : 0;
    if (size > 0 && index > from && kept + size > share) {
      ranges.push({ from, to: index });
      from = index;
      kept = 0;
    }
    kept += size;
  }
  ranges.push({ from, to: outline.length });
  return ranges;
}

/**
 * The items of one range kept within `budgetBytes`: each tier in turn, newest first, every item that
 * still fits with the notes that mark the gaps it leaves. In a window (`window`), the always-kept
 * items are kept whatever the byte estimate says: windowRanges counted that their tokens fit.
 */
function select(
  outline: readonly Outline[],
  range: { from: number; to: number },
  budgetBytes: number,
  window: boolean,
): Set<number> {
  const kept = new Set<number>();
  const omittedAt = (index: number) => index >= range.from && index < range.to && !kept.has(index);
  // Nothing kept yet: the whole range is one gap with its note.
  let used = NOTE_BYTES;
  for (const tier of [0, 1, 2] as const) {
    for (let index = range.to - 1; index >= range.from; index--) {
      const item = outline[index]!;
      if (item.tier !== tier) continue;
      // Keeping an item splits its gap in two, shortens it, or closes it.
      const notes = Number(omittedAt(index - 1)) + Number(omittedAt(index + 1)) - 1;
      const cost = item.size + notes * NOTE_BYTES;
      if (used + cost > budgetBytes && !(window && tier === 0)) continue;
      kept.add(index);
      used += cost;
    }
  }
  return kept;
}

/** The bytes of one "N items omitted here" note, a little over. */
const NOTE_BYTES = 80;
/** Its tokens, a little over. */
const NOTE_TOKENS = 20;

/**
 * Renders the kept items of every window in one forward read, with a note where items were left
 * out, saying how many.
 */
function renderKept(
  items: SessionItems,
  options: RenderOptions,
  ranges: ReadonlyArray<{ from: number; to: number }>,
  kept: ReadonlyArray<Set<number>>,
  failed: ReadonlySet<number>,
): RenderedSession[] {
  const windows = ranges.map(() => ({
    entries: [] as RenderedEntry[],
    omitted: 0,
    gap: 0,
    from: null as number | null,
    to: null as number | null,
  }));
  let index = 0;
  let window = 0;
  const closeGap = (at: (typeof windows)[number]) => {
    if (at.gap === 0) return;
    at.entries.push({ id: 0, role: "note", text: `${at.gap} items omitted here to fit the input budget` });
    at.omitted += at.gap;
    at.gap = 0;
  };
  for (const item of items.forward()) {
    if (!isMemoryItem(item)) continue;
    const position = index++;
    // The ranges are in session order, not always adjacent (only the windows still to be tightened).
    while (window < ranges.length && position >= ranges[window]!.to) closeGap(windows[window++]!);
    if (window === ranges.length) break;
    if (position < ranges[window]!.from) continue;
    const at = windows[window]!;
    at.from ??= item.id;
    at.to = item.id;
    if (kept[window]!.has(position)) {
      closeGap(at);
      at.entries.push(toEntry(item, options, failed.has(item.id)));
    } else at.gap++;
  }
  for (const at of windows) closeGap(at);
  return windows.map((at) => ({
    entries: at.entries,
    json: toJson(at.entries),
    tokens: undefined,
    omitted: at.omitted,
    itemFrom: at.from,
    itemTo: at.to,
  }));
}

/**
 * A tool result with no output is kept: a check that passed in silence (`cargo check`, `tsc`) is the
 * evidence that it worked, and a model shown only the call cannot tell.
 */
function isMemoryItem(item: ItemRecord): boolean {
  return MEMORY_ROLES.has(item.role) && (item.text.trim().length > 0 || item.role === "tool_result");
}

function sized(item: ItemRecord, options: RenderOptions): [RenderedEntry, number] {
  const entry = toEntry(item, options);
  return [entry, Buffer.byteLength(JSON.stringify(entry)) + 2];
}

function toEntry(item: ItemRecord, options: RenderOptions, failed = false): RenderedEntry {
  // Stored items are guarded already; this also covers rows stored before the store guarded them.
  const trimmed = item.text.trim();
  const entry = (text: string): RenderedEntry => ({
    id: item.id,
    role: RENDERED_ROLE[item.role] ?? item.role,
    ...(item.tool ? { tool: item.tool } : {}),
    ...(item.role === "tool_result" && (item.isError || failed) ? { failed: true as const } : {}),
    text,
  });
  if (trimmed === "") return entry("(no output)");
  const text = guardText(trimmed);
  if (item.role === "user" || item.role === "compaction") return alwaysKeptEntry(text, item.role, options, entry);
  // What the harness showed (a hook's or a local command's output) is cut like a message, not like a
  // tool output: it is short as a rule, and what it states about the repository sits anywhere in it.
  const isTool = item.role === "tool_result" || item.role === "tool_call";
  const share = Math.floor(options.maxInputTokens * ALWAYS_KEPT_SHARE * 0.8);
  return entry(clip(text, isTool ? options.toolOutputMaxTokens : Math.min(MESSAGE_MAX_TOKENS, share)));
}

/**
 * A user message or compaction summary, whole unless it alone is longer than SINGLE_ITEM_SHARE of the
 * budget; then clipped to that, counted as the JSON entry the model reads (escaping adds tokens).
 */
function alwaysKeptEntry(
  text: string,
  role: "user" | "compaction",
  options: RenderOptions,
  entry: (text: string) => RenderedEntry,
): RenderedEntry {
  const cap = Math.floor(options.maxInputTokens * SINGLE_ITEM_SHARE);
  const what = role === "user" ? "message" : "summary";
  const marker = `[... clipped: this ${what} alone is longer than one request may hold ...]`;
  if (!truncateToTokens(text, cap).truncated) return entry(text);
  let limit = cap;
  for (let attempt = 0; attempt < 3; attempt++) {
    const head = truncateToTokens(text, Math.ceil(limit * 0.7));
    const clipped = entry(`${head.text}\n${marker}\n${tailOf(text, limit)}`);
    const tokens = tokenCount(JSON.stringify(clipped));
    if (tokens <= cap) {
      clippedTokens.set(clipped, tokens);
      return clipped;
    }
    limit = Math.floor((limit * cap) / tokens) - 10;
  }
  return entry(`${truncateToTokens(text, Math.floor(cap / 4)).text}\n${marker}`);
}

/** Entries alwaysKeptEntry clipped, with the tokens it counted: the outline does not count them again. */
const clippedTokens = new WeakMap<RenderedEntry, number>();

/** The end of a text, for a clip of `maxTokens`: its last 30 %, at about three characters a token. */
function tailOf(text: string, maxTokens: number): string {
  return text.slice(text.length - Math.max(0, Math.floor(maxTokens * 0.3) * 3));
}

/** Keeps the head and the end of a long text: errors and results tend to sit at the end of outputs. */
function clip(text: string, maxTokens: number): string {
  const head = truncateToTokens(text, Math.ceil(maxTokens * 0.7));
  if (!head.truncated) return text;
  return `${head.text}\n[... clipped ...]\n${tailOf(text, maxTokens)}`;
}

/** One entry per line: readable for a model, and JSON escaping keeps fake markers and tags inert. */
function toJson(entries: readonly RenderedEntry[]): string {
  return `[\n${entries.map((entry) => JSON.stringify(entry)).join(",\n")}\n]`;
}
