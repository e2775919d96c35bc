import { type NumberedNames, namesOtherNumberedThing, numberedNames } from "./numberedNames.js";
import { isContentWord, words } from "./tokenize.js";

/**
 * Deployment environments: the same statement made of two of them is two facts ("staging uses
 * Postgres 14", "production uses Postgres 16"), each still true. From general knowledge of how
 * software is staged, not from any evaluation set.
 */
const ENVIRONMENTS: ReadonlyMap<string, string> = new Map([
  ["dev", "development"],
  ["development", "development"],
  ["local", "local"],
  ["localhost", "local"],
  ["staging", "staging"],
  ["stage", "staging"],
  ["qa", "qa"],
  ["uat", "uat"],
  ["preview", "preview"],
  ["prod", "production"],
  ["production", "production"],
  ["sandbox", "sandbox"],
  ["ci", "ci"],
]);

/** Words after which an environment is where the statement holds ("in staging", "on prod"). */
const PLACE = /^(?:in|on|for|at|within|against)$/;

/**
 * The environments a text is about: named as its first content word ("Staging uses ...", "Prod
 * deploys ...") or as the place it holds ("in staging", "on prod", "for the production build"). An
 * environment elsewhere is a value the statement gives ("deploys go to staging") and says nothing of
 * which thing it is about. `named` holds every environment the text names, wherever.
 */
export function environmentsAbout(text: string): { about: Set<string>; named: Set<string> } {
  const all = words(text);
  const out = new Set<string>();
  const named = new Set<string>();
  const first = all.findIndex(isContentWord);
  all.forEach((word, i) => {
    const env = ENVIRONMENTS.get(word);
    if (env === undefined) return;
    named.add(env);
    const before = all[i - 1] === "the" ? all[i - 2] : all[i - 1];
    if (i === first || (before !== undefined && PLACE.test(before))) out.add(env);
  });
  return { about: out, named };
}

/** The numbers in a statement's leading label ("note 15: ...", "#42: ..."), if it opens with one. */
function labelNumbers(text: string): Set<string> {
  const label = /^\s*([^:\n]{1,40}):\s/.exec(text)?.[1];
  if (label === undefined || label.split(/\s+/).length > 4) return new Set();
  return new Set(label.match(/\d+(?:\.\d+)*/g) ?? []);
}

/**
 * Each is about an environment the other does not name anywhere: "staging and production run
 * Postgres 16" names the staging of "the staging RDS instance is Postgres 14", and may update it.
 */
function otherEnvironments(a: NamedThings["environments"], b: NamedThings["environments"]): boolean {
  const foreign = (x: Set<string>, other: Set<string>) => x.size > 0 && ![...x].some((env) => other.has(env));
  return foreign(a.about, b.named) && foreign(b.about, a.named);
}

const disjoint = (a: Set<string>, b: Set<string>) => a.size > 0 && b.size > 0 && ![...a].some((x) => b.has(x));

/** What a statement names as the thing it is about: numbered things, its label's numbers, environments. */
export interface NamedThings {
  numbered: NumberedNames;
  labels: Set<string>;
  environments: { about: Set<string>; named: Set<string> };
}

export function namedThings(text: string): NamedThings {
  return { numbered: numberedNames(text), labels: labelNumbers(text), environments: environmentsAbout(text) };
}

/**
 * Whether two statements are about different named things, however alike their words: two numbered
 * things of a kind ("service 3" / "service 5"), two numbered labels ("note 15: ..." / "note 18: ..."),
 * or two environments ("in staging" / "in production"). Such a pair is never one fact and its update.
 * Takes the texts, or their `namedThings` when a caller compares one text with many.
 */
export function aboutOtherNamedThings(a: string | NamedThings, b: string | NamedThings): boolean {
  const x = typeof a === "string" ? namedThings(a) : a;
  const y = typeof b === "string" ? namedThings(b) : b;
  return (
    namesOtherNumberedThing(x.numbered, y.numbered) ||
    disjoint(x.labels, y.labels) ||
    otherEnvironments(x.environments, y.environments)
  );
}
