import type { RecallResult } from "../../memory/types.js";
import { contentStems } from "../../text/tokenize.js";
import type { Fact, FactDecision } from "./types.js";

/** A candidate this similar (calibrated recall score) or this overlapping is the same fact. */
const NEAR_DUPLICATE_SCORE = 0.9;
const NEAR_DUPLICATE_JACCARD = 0.8;

function jaccard(a: string, b: string): number {
  const x = new Set(contentStems(a));
  const y = new Set(contentStems(b));
  if (x.size === 0 && y.size === 0) return 1;
  let both = 0;
  for (const s of x) if (y.has(s)) both++;
  return both / (x.size + y.size - both);
}

/** Whether two statements share nearly all their content words (the same fact, reworded at most a little). */
export function nearlySameWords(a: string, b: string): boolean {
  return jaccard(a, b) >= NEAR_DUPLICATE_JACCARD;
}

/** Without a model: a near duplicate is NONE, anything else is ADD. Never UPDATE or DELETE. */
export function deterministicDecision(fact: Fact, candidates: RecallResult[]): FactDecision {
  const twin = candidates.find((c) => c.score >= NEAR_DUPLICATE_SCORE || nearlySameWords(c.content, fact.content));
  if (twin) {
    return {
      action: "NONE",
      targetId: twin.id,
      confidence: fact.confidence,
      reason: "near duplicate of an existing memory",
      decidedBy: "deterministic",
    };
  }
  return {
    action: "ADD",
    confidence: fact.confidence,
    reason: "no stored memory states this",
    decidedBy: "deterministic",
  };
}
