import { type SubjectNames, subjectNames } from "../../text/subjectNames.js";
import { analysed } from "./analysedStatement.js";
import { SAYS_CHANGE } from "./toolSwap.js";

const some = <T>(a: ReadonlySet<T>, has: (x: T) => boolean) => [...a].some(has);
const within = <T>(a: ReadonlySet<T>, b: ReadonlySet<T>) => [...a].every((x) => b.has(x));

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
  if (namesOtherThing(a, b) || namesOtherThing(b, a)) return true;
  // "The orders table has an index on (sku)" / "... on (user_id)": two entries of one set.
  if (a.oneOfMany && b.oneOfMany) return true;
  if (a.subject.size > 0 || b.subject.size > 0) return false;
  const added = [...a.all].filter((name) => !b.all.has(name));
  const dropped = [...b.all].filter((name) => !a.all.has(name));
  if (added.length === 0 && dropped.length === 0) return false;
  if (SAYS_CHANGE.test(newer) || analysed(newer).changes.length > 0) return false;
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
  return things.length > 0 && !some(x.subject, (name) => y.all.has(name));
}
