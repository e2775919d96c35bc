import type { RecallResult } from "../../memory/types.js";
import { contentStems } from "../../text/tokenize.js";
import type { Fact, FactDecision } from "./types.js";

/** A candidate this similar (calibrated recall score) or this overlapping is the same fact. */
const NEAR_DUPLICATE_SCORE = 0.9;
const NEAR_DUPLICATE_JACCARD = 0.8;

/** The content stems a near-duplicate comparison works on, taken once per text. */
export function stemSet(text: string): Set<string> {
  return new Set(contentStems(text));
}

/** Whether two texts' stems overlap nearly whole (the same fact, reworded at most a little). */
export function nearlySameStems(x: Set<string>, y: Set<string>): boolean {
  if (x.size === 0 && y.size === 0) return true;
  let both = 0;
  for (const s of x) if (y.has(s)) both++;
  return both / (x.size + y.size - both) >= NEAR_DUPLICATE_JACCARD;
}

/** Without a model: a near duplicate is NONE, anything else is ADD. Never UPDATE or DELETE. */
export function deterministicDecision(fact: Fact, candidates: RecallResult[]): FactDecision {
  const stems = stemSet(fact.content);
  const twin = candidates.find((c) => c.score >= NEAR_DUPLICATE_SCORE || nearlySameStems(stemSet(c.content), stems));
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
