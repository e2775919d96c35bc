/**
 * Decision language: a memory that records a choice is a constraint future sessions must respect, so
 * it is protected at write time (type `decision` unless the caller said otherwise, importance 0.85)
 * and receives the resolution boost at recall.
 */
const DECISION_PATTERNS: readonly RegExp[] = [
  /\bcho(?:se|sen)\s+(?:to\s+(?:use|go)\b|\S+.*\bover\b)/i,
  /\bdecided\s+(?:to|on|against)\b/i,
  /\bswitch(?:ed|ing)?\s+(?:from|to)\b/i,
  /\bmigrat(?:ed|ing|e)\s+(?:from|to|away)\b/i,
  /\bpicked\s+\S+.*\bover\b/i,
  /\bwent\s+with\b/i,
  /\bsticking\s+with\b/i,
  /\bcommitted\s+to\b/i,
  /\bsettled\s+on\b/i,
  /\bwill\s+(?:use|go\s+with|stick\s+with)\b/i,
  /\bprefers?\s+\S+.*\b(?:over|instead|rather)\b/i,
  /\badopted\b/i,
  /\barchitecture\s+decision\b/i,
  /\bdesign\s+decision\b/i,
];

/** Whether a text states a decision (seed 004's auto-protection battery; one list for every caller). */
export function isDecisionContent(content: string): boolean {
  return DECISION_PATTERNS.some((pattern) => pattern.test(content));
}

export const DECISION_IMPORTANCE = 0.85;
export const DEFAULT_IMPORTANCE = 0.5;
