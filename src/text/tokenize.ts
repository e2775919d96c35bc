import { stem } from "./stem.js";
import { STOP_WORDS } from "./stopWords.js";

/** Lowercase word runs (letters, digits, inner apostrophes), the same units FTS5's unicode61 sees. */
export function words(text: string): string[] {
  const lower = text.toLowerCase();
  // Fast path for plain ASCII, the bulk of what agents write; the general path folds diacritics.
  if (/^[\x00-\x7f]*$/.test(lower)) return lower.match(/[a-z0-9]+(?:'[a-z]+)*/g) ?? [];
  const out: string[] = [];
  for (const match of lower.normalize("NFKD").matchAll(/[\p{L}\p{N}\p{M}]+(?:['\u2019][\p{L}\p{M}]+)*/gu)) {
    out.push(match[0].replace(/\p{M}/gu, "").replace(/\u2019/g, "'"));
  }
  return out;
}

/** A word kept for matching: not a stop word, and not a lone letter. */
export function isContentWord(word: string): boolean {
  return word.length > 1 && !STOP_WORDS.has(word);
}

/** Stemmed content words in order ("she's painting sunsets" -> ["paint", "sunset"]). Possessives drop their 's. */
export function contentStems(text: string): string[] {
  const out: string[] = [];
  for (const word of words(text)) {
    const base = word.endsWith("'s") ? word.slice(0, -2) : word.replace(/'/g, "");
    if (isContentWord(base)) out.push(stem(base));
  }
  return out;
}
