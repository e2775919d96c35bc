import { FAILURE_STEMS, SUCCESS_STEMS } from "../../text/outcomeWords.js";
import type { Judgement } from "./judgement.js";
import { missing, type StatementTokens, shared } from "./statementTokens.js";

/**
 * Detector (b): the same sentence with other values ("the API listens on port 3000" -> "... 8080").
 * Three shared subject words pin both the thing and its attribute (two are often just a verb and an
 * object, "use npm", shared by statements about different things); five shared words leave room for
 * one filler word on either side. Each side must hold a value the other lacks: a value added next to
 * the old one is an addition, not a change.
 */
export function valueChanged(n: StatementTokens, o: StatementTokens): Judgement | undefined {
  if (n.negated !== o.negated) return undefined;
  const oldValues = missing(o.values, n.values);
  const newValues = missing(n.values, o.values);
  if (oldValues.length === 0 || newValues.length === 0) return undefined;
  const both = shared(n.subject, o.subject);
  const common = both.length;
  const differing = missing(n.subject, o.subject).length + missing(o.subject, n.subject).length;
  const what = `value change: ${oldValues.join(", ")} -> ${newValues.join(", ")}`;
  // "`pnpm test` failed with "FAIL a.test.ts"" and "... with "FAIL b.test.ts"", or "Command that
  // worked: `cd pkg && npm run build`" and "... `cd pkg && npm run check`": two outcomes seen, each
  // still true, not one fact whose value changed.
  const reportsOutcome = both.some((word) => FAILURE_STEMS.has(word) || SUCCESS_STEMS.has(word));
  if (reportsOutcome && spans(oldValues) && spans(newValues)) return undefined;
  // One slot changed is an update; several at once ("the worker runs Node 18 on port 3000" against "...
  // Node 20 on port 8080") may be two statements about different things, for a person to judge.
  const oneSlot = oldValues.length === 1 && newValues.length === 1;
  // "The staging deploy took 9 minutes on 2026-04-20" / "... 14 minutes on 2026-05-02": records of two
  // dated occasions, each still true. One date changed alone is a plan moved, and stays a change.
  if (!oneSlot && oldValues.some(isDate) && newValues.some(isDate)) return undefined;
  if (oneSlot && ((differing === 0 && common >= 3) || (differing <= 1 && common >= 5)))
    return { verdict: "supersede", reason: what };
  // Half-sure from here on. Commands or messages that are wholly different ("Command that worked:
  // `pnpm test`" / "... `docker compose up -d`") are entries of a list, not one thing changed: a
  // person asked about every pair of them would stop reading the queue.
  if (otherSpans(oldValues, newValues)) return undefined;
  if (!oneSlot && differing === 0 && common >= 3)
    return { verdict: "review", reason: `${what}; more than one value differs` };
  if ((differing === 0 && common === 2) || (differing <= 1 && common >= 3))
    return { verdict: "review", reason: `${what}; the statements differ a little more than a value` };
  return undefined;
}

/** An ISO date or date-time, or a time of day, as a value ("2026-05-02", "2026-05-02t10:00", "11:01"). */
function isDate(value: string): boolean {
  return /^\d{4}-\d{2}-\d{2}\b|^\d{1,2}:\d{2}$/.test(value);
}

/** Whether every value is a span of several words: a command, a quoted message. */
function spans(values: string[]): boolean {
  return values.every((value) => /\s/.test(value));
}

/**
 * Whether every changed value on both sides is a span of several words (a command, a quoted message)
 * and none is the same span as one on the other side with other arguments: the same program and its
 * first argument ("make docs" / "make docs --html"). "pnpm test" and "pnpm lint" are two commands.
 */
function otherSpans(oldValues: string[], newValues: string[]): boolean {
  const head = (value: string) => value.split(/\s+/).slice(0, 2).join(" ");
  return spans(oldValues) && spans(newValues) && !oldValues.some((a) => newValues.some((b) => head(a) === head(b)));
}
