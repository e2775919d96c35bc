import type { RecallConfig } from "../config/recallConfig.js";
import { contentStems } from "../text/tokenize.js";
import type { Candidate } from "./candidate.js";

type DampeningConfig = RecallConfig["dampening"];

const MONTH_OR_ISO_DATE =
  /\b(?:\d{4}-\d{2}-\d{2}|jan(?:uary)?|feb(?:ruary)?|march|april|june|july|aug(?:ust)?|sep(?:tember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b/i;

/**
 * Stage 1, gravity: a memory that only a semantic path found (no keyword match) and that shares no
 * stemmed content word with the query is probably an embedding false friend; its score is multiplied
 * by `gravityPenalty`.
 */
export function gravityDampening(candidates: Candidate[], queryStems: string[], config: DampeningConfig): void {
  const query = new Set(queryStems);
  for (const c of candidates) {
    // Keyword matches and memories lifted by their conversation context are not semantic guesses.
    if (c.keyword > 0 || c.sources.has("context") || c.score <= config.gravityThreshold) continue;
    if (!contentStems(c.content ?? "").some((s) => query.has(s))) c.score *= config.gravityPenalty;
  }
}

/**
 * Stage 2, hub: when every entity a memory mentions is a hub (mention count at or above the
 * `hubPercentile` of the candidates' entity degrees), the memory is about popular things in general,
 * not this query; its score is multiplied by `hubPenalty`.
 */
export function hubDampening(candidates: Candidate[], degrees: Map<number, number[]>, config: DampeningConfig): void {
  const all = [...degrees.values()].flat().sort((a, b) => a - b);
  if (all.length === 0) return;
  const threshold = all[Math.min(all.length - 1, Math.floor(config.hubPercentile * all.length))] ?? Infinity;
  for (const c of candidates) {
    const linked = degrees.get(c.id);
    if (linked && linked.length > 0 && linked.every((d) => d >= threshold)) c.score *= config.hubPenalty;
  }
}

/**
 * Stage 3, resolution: decisions and constraints are what a future session must not miss (x boost);
 * dated memories are more actionable than vague ones (half the boost). Short content gets none.
 */
export function resolutionBoost(candidates: Candidate[], config: DampeningConfig): void {
  for (const c of candidates) {
    const content = c.content ?? "";
    if (content.length < 50) continue;
    if (c.ref.type === "decision" || c.ref.type === "constraint") c.score *= config.resolutionBoost;
    else if (MONTH_OR_ISO_DATE.test(content)) c.score *= 1 + (config.resolutionBoost - 1) * 0.5;
  }
}

/** Runs the enabled stages in order; scores stay within [0, 1]. */
export function applyDampening(options: {
  candidates: Candidate[];
  queryStems: string[];
  degrees: () => Map<number, number[]>;
  config: DampeningConfig;
}): void {
  const { candidates, config } = options;
  if (config.gravityEnabled) gravityDampening(candidates, options.queryStems, config);
  if (config.hubEnabled) hubDampening(candidates, options.degrees(), config);
  if (config.resolutionEnabled) resolutionBoost(candidates, config);
  for (const c of candidates) c.score = Math.min(1, c.score);
}
