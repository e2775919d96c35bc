import { statementTokens } from "../../memory/lifecycle/statementTokens.js";
import type { RecallResult } from "../../memory/types.js";
import { contentStems } from "../../text/tokenize.js";
import { oppositeTerms } from "./contradiction.js";
import type { Fact, FactDecision } from "./types.js";

/** A candidate this similar (calibrated recall score) or this overlapping is the same fact. */
const NEAR_DUPLICATE_SCORE = 0.9;
const NEAR_DUPLICATE_JACCARD = 0.8;

/** What a near-duplicate comparison reads from a text, taken once per text. */
export interface FactShape {
  text: string;
  /** Content stems (stop words left out). */
  stems: Set<string>;
  /** The literal values it states (ports, versions, commands), as the lifecycle reads them. */
  values: Set<string>;
  negated: boolean;
}

export function factShape(text: string): FactShape {
  const { values, negated } = statementTokens(text);
  return { text, stems: new Set(contentStems(text)), values, negated };
}

/** Whether two texts' stems overlap nearly whole (the same fact, reworded at most a little). */
function nearlySameStems(x: Set<string>, y: Set<string>): boolean {
  if (x.size === 0 && y.size === 0) return true;
  let both = 0;
  for (const s of x) if (y.has(s)) both++;
  return both / (x.size + y.size - both) >= NEAR_DUPLICATE_JACCARD;
}

/**
 * Whether the texts say the same thing: the same polarity, the same values and no opposite terms.
 * Word overlap alone cannot tell "The API listens on port 3000 in the dev compose setup" from "...
 * port 8080 ...", or "Use npm for installs" from "Never use npm for installs": those are updates, to be
 * stored and judged by the lifecycle, never dropped as the memory they change.
 */
export function sameSubstance(x: FactShape, y: FactShape): boolean {
  if (x.negated !== y.negated || x.values.size !== y.values.size) return false;
  for (const value of x.values) if (!y.values.has(value)) return false;
  return oppositeTerms(x.text, y.text) === undefined;
}

/** The same fact, reworded at most a little. */
export function sameFact(x: FactShape, y: FactShape): boolean {
  return nearlySameStems(x.stems, y.stems) && sameSubstance(x, y);
}

/** Without a model: a near duplicate is NONE, anything else is ADD. Never UPDATE or DELETE. */
export function deterministicDecision(fact: Fact, candidates: RecallResult[]): FactDecision {
  const shape = factShape(fact.content);
  const twin = candidates.find((c) => {
    const other = factShape(c.content);
    return c.score >= NEAR_DUPLICATE_SCORE ? sameSubstance(other, shape) : sameFact(other, shape);
  });
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
