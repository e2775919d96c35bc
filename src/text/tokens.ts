import { createRequire } from "node:module";

interface Encoding {
  countTokens(text: string): number;
  encode(text: string): number[];
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

/** Cuts text to at most `maxTokens` tokens, on a token boundary. */
export function truncateToTokens(text: string, maxTokens: number): { text: string; truncated: boolean } {
  if (maxTokens <= 0) return { text: "", truncated: text.length > 0 };
  // Every token covers at least one UTF-8 byte, so a text of at most maxTokens bytes always fits.
  if (Buffer.byteLength(text) <= maxTokens) return { text, truncated: false };
  const tokens = bpe().encode(text);
  if (tokens.length <= maxTokens) return { text, truncated: false };
  return { text: bpe().decode(tokens.slice(0, maxTokens)), truncated: true };
}

/** True when the text fits the budget; avoids loading the tokenizer for short texts. */
export function fitsTokens(text: string, maxTokens: number): boolean {
  return Buffer.byteLength(text) <= maxTokens || tokenCount(text) <= maxTokens;
}
