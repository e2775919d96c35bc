import { stem } from "./stem.js";

/**
 * Pairs of words that say the opposite state of one setting or rule: a feature enabled or disabled, a
 * flag on or off, access allowed or denied. Written from general knowledge of how configuration and
 * policy are stated in software (flags, permissions, visibility, requirement), not from any
 * evaluation set. One side in each of two otherwise identical statements is the same setting changed.
 *
 * `predicate` pairs are verbs and flag words: they state the setting wherever they stand, unless an
 * article or possessive makes them a modifier ("the disabled users"). `copula` pairs are adjectives
 * that as often name which thing ("the public API", "local config") as what state it is in, so they
 * count only after a verb of being or setting ("the repo is private", "the cache stays local").
 */
const PREDICATE: ReadonlyArray<readonly [string, string]> = [
  ["enable", "disable"],
  ["enabled", "disabled"],
  ["activate", "deactivate"],
  ["activated", "deactivated"],
  ["allow", "deny"],
  ["allow", "disallow"],
  ["allow", "forbid"],
  ["allow", "block"],
  ["allowed", "forbidden"],
  ["allowed", "blocked"],
  ["allowed", "denied"],
  ["permit", "deny"],
  ["permit", "forbid"],
  ["accept", "reject"],
  ["on", "off"],
  ["true", "false"],
  ["include", "exclude"],
  ["lock", "unlock"],
  ["locked", "unlocked"],
  ["required", "optional"],
  ["mandatory", "optional"],
  ["visible", "hidden"],
  ["shown", "hidden"],
  ["allowlist", "denylist"],
  ["allowlist", "blocklist"],
  ["whitelist", "blacklist"],
  ["supported", "unsupported"],
];

const COPULA: ReadonlyArray<readonly [string, string]> = [
  ["active", "inactive"],
  ["public", "private"],
  ["open", "closed"],
  ["online", "offline"],
  ["local", "remote"],
  ["internal", "external"],
  ["synchronous", "asynchronous"],
  ["sync", "async"],
  ["strict", "lenient"],
  ["mutable", "immutable"],
  ["static", "dynamic"],
  ["valid", "invalid"],
];

/** One pair, with the stems the words are compared by. */
export interface OppositePair {
  a: string;
  b: string;
  x: string;
  y: string;
  /** Whether the words count only after a verb of being or setting (see above). */
  copula: boolean;
}

const stemmed = (pairs: ReadonlyArray<readonly [string, string]>, copula: boolean): OppositePair[] =>
  pairs.map(([a, b]) => ({ a, b, x: stem(a), y: stem(b), copula }));

/** Every pair, predicate ones first. */
export const OPPOSITE_STATES: readonly OppositePair[] = [...stemmed(PREDICATE, false), ...stemmed(COPULA, true)];
