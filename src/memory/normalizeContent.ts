import { withoutControls } from "../text/controlCharacters.js";
import { sha256 } from "../util/hash.js";

export interface NormalizedContent {
  /** Trimmed, whitespace collapsed, original casing: what the store keeps and returns. */
  storageContent: string;
  /** Lowercased storage content without trailing punctuation: the dedupe basis. */
  normalizedContent: string;
  /** SHA-256 hex of the normalized content (or of the lowercased storage content when that is empty). */
  contentHash: string;
}

/**
 * The one normalization every write and every dedupe check goes through, so "Use pnpm." and
 * "  use   PNPM " are the same memory. Deterministic: the hash is a stable key for vectors too.
 */
export function normalizeContent(content: string): NormalizedContent {
  // Whitespace collapses to one space first; what is left of the control characters cannot be shown.
  const storageContent = withoutControls(content.trim().replace(/\s+/g, " "));
  const lowered = storageContent.toLowerCase();
  const normalizedContent = lowered.replace(/[.,!?;:]+$/, "");
  const basis = normalizedContent.length > 0 ? normalizedContent : lowered;
  return { storageContent, normalizedContent, contentHash: sha256(basis) };
}
