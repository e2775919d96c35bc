/**
 * Words with which a statement says that it is a change ("tests run with vitest now", "we moved to
 * pnpm", "X is no longer used"): what it states replaced what held before. Read by the detectors of
 * the lifecycle and by recall's recency stage.
 */
export const SAYS_CHANGE =
  /\b(?:now|nowadays|instead|anymore|any\s+more|no\s+longer|going\s+forward|from\s+now\s+on|switched|moved|migrated|ported|transitioned|adopted|replaced|replaces|took\s+over|taken\s+over|upgraded|downgraded|bumped|retired|decommissioned|shut\s+down|reverted|reversed|back\s+(?:to|on)|again)\b/i;

/** Whether `text` says it is a change (`SAYS_CHANGE`). */
export function saysChange(text: string): boolean {
  return SAYS_CHANGE.test(text);
}

/**
 * A line of conversation: a speaker's label ("Ana: ...", "(9:10 am, 2 May) Ana: ...") or a
 * person speaking of themselves ("I", "my"). In talk "now" and "again" tell what happened lately
 * ("I'm now painting again"), not that a setting changed; two such lines sharing a few words are two
 * moments of a life, which only a model or a person can read as one replacing the other.
 */
export function spokenLine(text: string): boolean {
  return /^\s*(?:\([^)]*\)\s*)?[A-Z][\w'-]*:\s/.test(text) || /\b(?:I|me|my|mine|myself)\b/.test(text);
}
