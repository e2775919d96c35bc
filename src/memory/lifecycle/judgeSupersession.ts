import { namesOtherNumberedThing } from "../../text/numberedNames.js";
import { analysed } from "./analysedStatement.js";
import { changed } from "./changeDetector.js";
import type { Judgement } from "./judgement.js";
import { polarityFlipped } from "./polarityFlip.js";
import { toolSwapped } from "./toolSwap.js";
import { valueChanged } from "./valueChange.js";

export type { Judgement } from "./judgement.js";

/** A memory as the judgement orders it. */
export interface Dated {
  id: number;
  occurredAt: number | null;
  createdAt: number;
}

/** Whether `a` is newer than `b`: the later occurredAt (else creation time), the higher id on a tie. */
export function isNewer(a: Dated, b: Dated): boolean {
  const at = a.occurredAt ?? a.createdAt;
  const bt = b.occurredAt ?? b.createdAt;
  return at !== bt ? at > bt : a.id > b.id;
}

/**
 * Whether the newer statement replaces the older one, by four detectors that need no model, tried in
 * order: a change of value in an otherwise identical statement (the most precise); a statement of
 * change naming what the older one presents as current; the same action, negated in a clause of one
 * of the two; one tool swapped for another of its kind. Undefined when none applies: a pair that
 * shares a word or two is not about the same subject, and two numbered things of one kind ("service
 * 3", "service 5") are two subjects.
 */
export function judgeSupersession(newer: string, older: string): Judgement | undefined {
  // "Service 3 ..." against "Service 5 ...": statements about two things of a kind, however alike.
  if (namesOtherNumberedThing(analysed(newer).names, analysed(older).names)) return undefined;
  const n = analysed(newer).tokens;
  const o = analysed(older).tokens;
  const flips = analysed(newer).clauses.flatMap((a) => analysed(older).clauses.map((b) => polarityFlipped(a, b)));
  return (
    valueChanged(n, o) ??
    changed(newer, older, o) ??
    flips.find((j) => j?.verdict === "supersede") ??
    flips.find((j) => j !== undefined) ??
    toolSwapped(n, o, { newer, older })
  );
}
