import { createRequire } from "node:module";

interface Encoding {
  countTokens(text: string): number;
  encode(text: string): number[];
  /** The same tokens as `encode`, in order, one pre-tokenized piece at a time. */
  encodeGenerator(text: string): Iterable<number[]>;
  decode(tokens: number[]): string;
}

const require = createRequire(import.meta.url);
let encoding: Encoding | undefined;

/**
 * The one tokenizer: o200k_base, the encoding of current OpenAI models. Other providers' tokenizers
 * differ by a few percent; budgets here are limits, not bills. The BPE tables take ~150 ms to load,
 * so they are loaded on first use only, and texts that cannot exceed a budget skip them entirely.
 */
function bpe(): Encoding {
  encoding ??= require("gpt-tokenizer/encoding/o200k_base") as Encoding;
  return encoding;
}

export function tokenCount(text: string): number {
  return text.length === 0 ? 0 : bpe().countTokens(text);
}

/** Texts up to this many bytes per token of budget are likely to fit: counted before encoding. */
const COUNT_FIRST_BYTES_PER_TOKEN = 8;

/** Cuts text to at most `maxTokens` tokens, on a token boundary. */
export function truncateToTokens(text: string, maxTokens: number): { text: string; truncated: boolean } {
  if (maxTokens <= 0) return { text: "", truncated: text.length > 0 };
  // Every token covers at least one UTF-8 byte, so a text of at most maxTokens bytes always fits.
  const bytes = Buffer.byteLength(text);
  if (bytes <= maxTokens) return { text, truncated: false };
  // A text a few times the budget is counted first (counting allocates nothing); a longer one is
  // encoded piece by piece and stopped past the budget, so a huge output (a build log) is cut after
  // reading its head, not after encoding all of it.
  if (bytes <= maxTokens * COUNT_FIRST_BYTES_PER_TOKEN && bpe().countTokens(text) <= maxTokens) {
    return { text, truncated: false };
  }
  const tokens: number[] = [];
  for (const piece of bpe().encodeGenerator(text)) {
    for (const token of piece) tokens.push(token);
    if (tokens.length > maxTokens) return { text: bpe().decode(tokens.slice(0, maxTokens)), truncated: true };
  }
  return { text, truncated: false };
}

/** True when the text fits the budget; avoids loading the tokenizer for short texts. */
export function fitsTokens(text: string, maxTokens: number): boolean {
  return Buffer.byteLength(text) <= maxTokens || tokenCount(text) <= maxTokens;
}
