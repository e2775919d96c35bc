import { aboutOtherNamedThings } from "../../text/otherNamedThings.js";
import { aboutOtherOccasions } from "../../text/reportedOccasion.js";
import { analysed } from "./analysedStatement.js";
import { changed } from "./changeDetector.js";
import { impliedSwap } from "./impliedSwap.js";
import type { Judgement } from "./judgement.js";
import { oppositeState } from "./oppositeState.js";
import { aboutOtherSubjects } from "./otherSubjects.js";
import { polarityFlipped } from "./polarityFlip.js";
import { restatedAsChange } from "./restatedAsChange.js";
import { toolSwapped } from "./toolSwap.js";
import { valueChanged } from "./valueChange.js";
import { versionBumped } from "./versionBump.js";
import { wordSwapped } from "./wordSwap.js";

export type { Judgement } from "./judgement.js";

/**
 * Whether the newer statement replaces the older one, by detectors that need no model, tried in order
 * (the first sure one decides, else the first half-sure one): a change of value in an otherwise
 * identical statement (the most precise); a statement of change naming what the older one presents as
 * current; the same named tool at another version; the same action, negated in a clause of one of the
 * two; one tool swapped for another of its kind; a state turned to its opposite (enabled / disabled,
 * on / off, allows / denies); a move to a tool of the kind the older one names ("we moved to pnpm"
 * against "we use npm"); one word of the same slot changed, said as a change ("now prefers spaces").
 * Undefined when none applies: a pair that shares a word or two is not about the same subject, two
 * named things (numbered things, numbered labels, two environments) are two subjects, and so are two
 * reports of what ran that name different commands or different errors.
 */
export function judgeSupersession(newer: string, older: string): Judgement | undefined {
  // "Service 3 ..." against "Service 5 ...", "note 15: ..." against "note 18: ...", "in staging ..."
  // against "in production ...": statements about two things of a kind, however alike.
  if (aboutOtherNamedThings(analysed(newer).names, analysed(older).names)) return undefined;
  // "The payments_cron table ..." against "The feed_worker table ...": two code-like names, two things.
  if (aboutOtherSubjects(newer, older)) return undefined;
  // "`mix test` fails with ..." against "`mix dialyzer` fails with ...": two occasions, each still true.
  if (aboutOtherOccasions(analysed(newer).occasion, analysed(older).occasion)) return undefined;
  // Two moves ("x now uses A instead of B", "x now uses C instead of D") are two facts; the newer
  // updates the older only by leaving what the older brought in, which the change detector reads.
  if (isMove(newer) && isMove(older)) return changed(newer, older, analysed(older).tokens);
  const n = analysed(newer).tokens;
  const o = analysed(older).tokens;
  const flips = () => analysed(newer).clauses.flatMap((a) => analysed(older).clauses.map((b) => polarityFlipped(a, b)));
  const detectors: (() => Judgement | undefined)[] = [
    () => valueChanged(n, o),
    () => changed(newer, older, o),
    () =>
      versionBumped(
        { text: newer, tokens: n, versions: analysed(newer).versions },
        { text: older, tokens: o, versions: analysed(older).versions },
      ),
    () => {
      const all = flips();
      return all.find((j) => j?.verdict === "supersede") ?? all.find((j) => j !== undefined);
    },
    () => toolSwapped(n, o, { newer, older }),
    () => oppositeState(newer, older),
    () => impliedSwap(n, o, { newer, older }),
    () => wordSwapped(n, o, { newer, older }),
    () => restatedAsChange(n, o, { newer, older }, analysed(newer).changes),
  ];
  // One detector's evidence is enough to apply: a half-sure reading by an earlier one does not stop a
  // sure reading by a later one ("Expo SDK 50" -> "52" is more than a value change in one sentence,
  // and exactly a version change).
  let review: Judgement | undefined;
  for (const detect of detectors) {
    const judgement = detect();
    if (judgement?.verdict === "supersede") return judgement;
    review ??= judgement;
  }
  return review;
}

/** A statement that something was left for something else ("moved from A to B", "B instead of A"). */
function isMove(text: string): boolean {
  return analysed(text).changes.some((change) => change.kind === "obsolete" && change.replacement !== undefined);
}
