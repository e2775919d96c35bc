import { guardOptional, guardText } from "../redact/guard.js";
import type { NewMemoryRow } from "../store/contracts/memories.js";
import { DECISION_IMPORTANCE, DEFAULT_IMPORTANCE, isDecisionContent } from "../text/decisionLanguage.js";
import { conceptWords, type Lexicon } from "../text/lexicon/concepts.js";
import { mentionedTimeTerms, toOccurredAt } from "../text/temporalTerms.js";
import { normalizeContent } from "./normalizeContent.js";
import { searchTermsText } from "./searchTerms.js";
import type { RememberInput } from "./types.js";

export const DEFAULT_SCOPE = "global";

export interface PreparedMemory {
  row: NewMemoryRow;
  decision: boolean;
  /** Why it will not be stored, when it will not. */
  skip?: string;
}

/**
 * Everything about a memory that needs no database and no network: normalization, hash, type and
 * importance (decision language is protected: type `decision`, importance 0.85, unless given), the
 * calendar tokens of the times it mentions and, with a lexicon, the category words of its nouns.
 */
export function prepareRemember(
  input: RememberInput,
  now: number,
  concepts?: { lexicon: Lexicon; depth: number },
): PreparedMemory {
  // Guarded first: the hash, the vector, the index terms and the linked entities all derive from it.
  const normalized = normalizeContent(guardText(input.content ?? ""));
  const decision = isDecisionContent(normalized.storageContent);
  const occurredAt = toOccurredAt(input.occurredAt) ?? null;
  const timeTerms = mentionedTimeTerms(normalized.storageContent, occurredAt ?? undefined);
  const conceptTerms = concepts
    ? conceptWords(normalized.storageContent, concepts.lexicon, concepts.depth).join(" ")
    : "";
  const row: NewMemoryRow = {
    content: normalized.storageContent,
    normalizedContent: normalized.normalizedContent,
    contentHash: normalized.contentHash,
    type: input.type ?? (decision ? "decision" : "fact"),
    confidence: clamp01(input.confidence ?? 1),
    importance: clamp01(input.importance ?? (decision ? DECISION_IMPORTANCE : DEFAULT_IMPORTANCE)),
    // Labels and keys a caller names are stored and shown like the content, so they are guarded too.
    scope: input.scope && input.scope.length > 0 ? guardText(input.scope) : DEFAULT_SCOPE,
    project: guardOptional(input.project ?? null),
    // A pushed transcript's session key names the memory's session, so its transcript can be found from it.
    sessionId: guardOptional(input.provenance?.sessionId ?? input.sessionKey ?? null),
    itemFrom: input.provenance?.itemFrom ?? null,
    itemTo: input.provenance?.itemTo ?? input.provenance?.itemFrom ?? null,
    occurredAt,
    timeTerms: timeTerms === "" ? null : timeTerms,
    conceptTerms: conceptTerms === "" ? null : conceptTerms,
    searchTerms: searchTermsText(input.searchTerms ?? []),
    ref: input.ref ?? null,
    who: input.who ?? null,
    why: input.why ?? null,
    embeddingModel: null,
    now,
  };
  const prepared: PreparedMemory = { row, decision };
  if (normalized.normalizedContent.length === 0) prepared.skip = "empty_content";
  return prepared;
}

function clamp01(value: number): number {
  return Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 1;
}
