import { type SubjectNames, subjectNames } from "../../text/subjectNames.js";
import { analysed } from "./analysedStatement.js";
import { SAYS_CHANGE } from "./toolSwap.js";

/**
 * One name as another writes it: case, `_` against `-`, and a name that is a segment of the other's
 * path or dotted name ("billing_jobs" in "src/billing-jobs/export", "worker-pool" in
 * "ops/worker-pool/unit.service") are the same thing.
 */
function sameName(x: string, y: string): boolean {
  const a = x.toLowerCase().replaceAll("_", "-");
  const b = y.toLowerCase().replaceAll("_", "-");
  return a === b || b.split(/[/.]/).includes(a) || a.split(/[/.]/).includes(b);
}
const holds = (names: ReadonlySet<string>, name: string) => [...names].some((other) => sameName(name, other));
const within = (a: ReadonlySet<string>, b: ReadonlySet<string>) => [...a].every((x) => holds(b, x));

/**
 * Whether two statements are about different named things (code-like names, src/text/subjectNames.ts),
 * so that neither can be the other's update however alike their words:
 * - each is about a name the other's subject does not hold ("The payments_cron table ..." / "The
 *   feed_worker table ...", "Calls from a-api to b-api ..." / "Calls from a-api to c-api ...");
 * - one is about a name, and the other names things but not that one ("billing-api now uses express
 *   instead of zod" / "We pin zod to 1.2 in orders-api");
 * - neither subject holds a name, and they give different names where nothing says the relation holds
 *   one value at a time: "Rosa reviews every change under src/a" and "... under src/b" can both be
 *   true. A word or statement of change ("now", "instead", "was raised from"), a name after a word of
 *   being ("the image is node:22"), a command (how a thing is done), or two subjects that describe
 *   one thing ("The staging config lives in ...") say one value replaced another, and the detectors
 *   judge the pair.
 * - both say the thing has "a"/"an" something (an index, a replica): two entries of a set.
 * A statement that names nothing code-like is left to the detectors ("The API listens on 3000").
 */
export function aboutOtherSubjects(newer: string, older: string): boolean {
  const a = subjectNames(newer);
  const b = subjectNames(older);
  if (a.subject.size > 0 && b.subject.size > 0 && !within(a.subject, b.subject) && !within(b.subject, a.subject))
    return true;
  // A newer statement that says it is a change ("now", "replaced ... with") may name the thing
  // differently from the older one ("the dashboard" / "web-dashboard"): the detectors judge it.
  const saysChange = SAYS_CHANGE.test(newer) || analysed(newer).changes.length > 0;
  // Unless the other names, as the place it holds, a thing of its own ("We pin zod in orders-api"
  // against "media-api now uses valibot instead of zod").
  const otherPlace = (x: SubjectNames, text: string) =>
    placeNames(text, x === a ? b.all : a.all).some((name) => !holds(x.subject, name));
  if (namesOtherThing(a, b) && (!saysChange || otherPlace(a, older))) return true;
  if (namesOtherThing(b, a) && (!saysChange || otherPlace(b, newer))) return true;
  // "The orders table has an index on (sku)" / "... on (user_id)": two entries of one set.
  if (a.oneOfMany && b.oneOfMany) return true;
  if (a.subject.size > 0 || b.subject.size > 0) return false;
  const added = [...a.all].filter((name) => !holds(b.all, name));
  const dropped = [...b.all].filter((name) => !holds(a.all, name));
  // Only two statements that each name something the other does not can be two entries of a
  // relation ("... reviews src/a" / "... reviews src/b"); one that adds a detail to the other
  // ("..., staging-main first") is judged by the detectors.
  if (added.length === 0 || dropped.length === 0) return false;
  if (saysChange) return false;
  // A thing described as one ("The staging config lives in ...") holds one value of what the verb says.
  if (a.definite && b.definite) return false;
  const value = (x: SubjectNames) => (name: string) => x.afterBeing.has(name) || x.spans.has(name);
  return !(added.every(value(a)) && dropped.every(value(b)));
}

/**
 * `x` is about names, `y` names things (not only values: a command, a name after a word of being), and
 * none of them is one `x` is about.
 */
function namesOtherThing(x: SubjectNames, y: SubjectNames): boolean {
  if (x.subject.size === 0) return false;
  const things = [...y.all].filter((name) => !y.spans.has(name) && !y.afterBeing.has(name));
  return things.length > 0 && ![...x.subject].some((name) => holds(y.all, name));
}

/**
 * The names a statement gives as the place it holds: after "in", "for", "on" or "at" ("in orders-api").
 * A file is where a setting is written ("the rules in .eslintrc.json"), not a thing of its own.
 */
function placeNames(text: string, names: ReadonlySet<string>): string[] {
  return [...names].filter((name) => {
    if (/\.[a-z]{1,5}$/i.test(name)) return false;
    const at = text.indexOf(name);
    return at > 0 && /\b(?:in|for|on|at)\s+(?:the\s+)?$/i.test(text.slice(Math.max(0, at - 12), at));
  });
}
