import { looksLikeBareSecret } from "../redact/gates.js";
import { guardText } from "../redact/guard.js";
import { requestLimits } from "../requests/limits.js";

/** Terms kept per memory (the limit a caller's request is held to; a model's answer is cut to it). */
export const MAX_SEARCH_TERMS = requestLimits.searchTerms;
/** A term is a word or a short name ("end-to-end test", "PostgreSQL"); longer is a sentence. */
export const MAX_SEARCH_TERM_CHARS = requestLimits.searchTermChars;

/** The longest a memory's stored search terms get: every term at its longest, with a space between. */
export const SEARCH_TERMS_CHARS = MAX_SEARCH_TERMS * (MAX_SEARCH_TERM_CHARS + 1);

const REDACTION_MARKER = /\[REDACTED:[a-z0-9-]+\]/;

/**
 * Search terms as a memory keeps them: each term guarded, whitespace collapsed, empty, over-long and
 * duplicate (case-insensitive) terms dropped, at most MAX_SEARCH_TERMS. A term the redactor touched is
 * dropped whole: its marker would only index the word "redacted"; so is one that looks like a bare
 * credential (see looksLikeBareSecret).
 */
export function cleanSearchTerms(terms: readonly unknown[]): string[] {
  const kept: string[] = [];
  const seen = new Set<string>();
  for (const term of terms) {
    if (typeof term !== "string") continue;
    const clean = guardText(term).trim().replace(/\s+/g, " ");
    const key = clean.toLowerCase();
    if (clean.length === 0 || clean.length > MAX_SEARCH_TERM_CHARS || REDACTION_MARKER.test(clean)) continue;
    // A term has no context for the rules to read: a bare password or key given as one is dropped.
    if (looksLikeBareSecret(clean)) continue;
    if (seen.has(key)) continue;
    seen.add(key);
    kept.push(clean);
    if (kept.length >= MAX_SEARCH_TERMS) break;
  }
  return kept;
}

/** The stored form of a memory's search terms: cleaned, space-separated; null for none. */
export function searchTermsText(terms: readonly unknown[]): string | null {
  const kept = cleanSearchTerms(terms);
  return kept.length === 0 ? null : kept.join(" ");
}
