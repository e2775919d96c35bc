import { isNumberedName } from "./numberedNames.js";
import { statementSentences } from "./statementSentences.js";
import { isContentWord } from "./tokenize.js";
import { isKnownTool } from "./toolKinds.js";

/**
 * Named things written with their version: "Kubernetes 1.27", "Expo SDK 50", "PostgreSQL 14", "Redis
 * version 7", "React Router v6". A version belongs to one tool in one place, so a newer memory that
 * gives the same tool another version (and never the old one) says the old one is past.
 *
 * Read conservatively, since a wrong reading retires a true memory: the name must be written as a
 * name (a capital letter, "Node", "iOS", "SDK"; in lower case only a known tool or language, "node
 * 20", "python 3.12"), not open its sentence unless the version has a dot
 * ("Wait 30 seconds", "Use 4 workers" are quantities), not be a date ("March 10") or a numbered thing
 * ("Service 3", "PR 12", src/text/numberedNames.ts), and not be followed by a unit ("Node 18 MB").
 */

/** A version as written after a name: 14, 1.27, 0.73, v6, 6.x, 15.1+, 1.23.0. */
const VERSION = /^v?\d+(?:\.\d+)*(?:\.x)?\+?$/i;

/** Heads too generic to name a tool alone: the word before them says which ("Expo SDK", "Android API"). */
const GENERIC_HEADS: ReadonlySet<string> = new Set(["sdk", "api", "cli", "lts", "edition", "runtime", "engine"]);

/** Capitalized words before a number that is not a version: calendar names, protocols' status words. */
const NOT_NAMES: ReadonlySet<string> = new Set([
  ..."january february march april may june july august september october november december".split(" "),
  ..."jan feb mar apr jun jul aug sep sept oct nov dec".split(" "),
  ..."monday tuesday wednesday thursday friday saturday sunday q1 q2 q3 q4 fy".split(" "),
  ..."http https status code exit error errno port".split(" "),
  // Words that number a release of the project itself: "Release 2.4.0 shipped on May 3" and "Release
  // 2.3.0 shipped ..." are two events, not one tool that moved on.
  ..."release releases version versions build tag patch hotfix".split(" "),
  ..."update upgrade milestone sprint rc beta alpha".split(" "),
]);

/** Words after a number that make it a quantity, not a version. */
const UNITS =
  /^(?:ms|s|sec|secs|seconds?|mins?|minutes?|h|hrs?|hours?|days?|weeks?|months?|years?|b|kb|mb|gb|tb|kib|mib|gib|%|x|px|times|items?|rows?|lines?|files?|requests?|retries|attempts?|users?|workers?|threads?|cores?|cpus?|connections?|shards?|replicas?|nodes?|instances?|percent)$/i;

/** Each versioned name of a text, lower-cased, with the versions it is written with (normalized). */
export type VersionedNames = ReadonlyMap<string, ReadonlySet<string>>;

export function versionedNames(text: string): VersionedNames {
  const out = new Map<string, Set<string>>();
  for (const sentence of statementSentences(text)) {
    const raw = sentence.split(/\s+/).filter((token) => token.length > 0);
    const bare = raw.map((token) => token.replace(/^[("'`[{]+|[)"'`\]},;:!?]+$|\.+$/g, ""));
    bare.forEach((token, i) => {
      if (!VERSION.test(token) || i === 0) return;
      // "Redis version 7", "Redis v7": the name is the word before "version".
      let at = i - 1;
      if (/^(?:version|ver|v)$/i.test(bare[at] ?? "") && at > 0) at--;
      const name = bare[at] ?? "";
      if (!writtenAsName(name, at, token) || UNITS.test(bare[i + 1] ?? "")) return;
      // A name ended by punctuation ("Node, 18 files") is not followed by its version.
      if (/[,;:)]$/.test(raw[at] ?? "")) return;
      const key = nameKey(bare, at);
      const versions = out.get(key) ?? new Set<string>();
      versions.add(normalizeVersion(token));
      out.set(key, versions);
    });
  }
  return out;
}

/**
 * The name as a key, lower-cased: with the word before when both are written as one name ("React
 * Native", "Spring Boot") or the head is generic ("Expo SDK"); else the head alone ("on Node").
 */
function nameKey(bare: string[], at: number): string {
  const head = (bare[at] ?? "").toLowerCase();
  const before = bare[at - 1];
  if (before === undefined || !/^[A-Za-z][\w.+#-]*$/.test(before) || !isContentWord(before.toLowerCase())) return head;
  const joined = GENERIC_HEADS.has(head) || (/^[A-Z]/.test(before) && at - 1 > 0);
  return joined ? `${before.toLowerCase()} ${head}` : head;
}

/**
 * Languages written in lower case with their version ("python 3.12"); with the tools of the kinds
 * table ("node 20", "postgres 16") they are names however written. Not "go": "go 2 steps back".
 */
const LANGUAGES: ReadonlySet<string> = new Set(
  "python ruby java php perl rust kotlin swift scala elixir erlang dotnet typescript".split(" "),
);

/** Tools of the table whose name is also a plain word before a count ("limit requests 100 per minute"). */
const PLAIN_WORD_TOOLS: ReadonlySet<string> = new Set(["requests"]);

function writtenAsName(name: string, index: number, version: string): boolean {
  const lower = name.toLowerCase();
  const known = name === lower && (LANGUAGES.has(lower) || isKnownTool(lower)) && !PLAIN_WORD_TOOLS.has(lower);
  if (known) return !isNumberedName(lower, version.replace(/^v/i, ""));
  if (!/^[A-Za-z][\w.+#-]*$/.test(name) || !/[A-Z]/.test(name)) return false;
  if (NOT_NAMES.has(lower) || !isContentWord(lower) || isNumberedName(lower, version.replace(/^v/i, ""))) return false;
  // A capital that only opens the sentence is grammar, unless the number is plainly a version.
  return index > 0 || /[.]|^v/i.test(version);
}

/** "v6" -> "6", "6.x" -> "6"; a minimum keeps its plus ("15.1+"). */
function normalizeVersion(version: string): string {
  return version.toLowerCase().replace(/^v/, "").replace(/\.x$/, "");
}

/** A minimum supported version ("Android 12+"), not the one in use. */
const isMinimum = (version: string) => version.endsWith("+");

/** Whether two versions are one: equal, or one a release of the other ("1.23" and "1.23.0", "18" and "18.19"). */
export function sameVersion(a: string, b: string): boolean {
  const [x, y] = [a.replace(/\+$/, ""), b.replace(/\+$/, "")];
  return x === y || x.startsWith(`${y}.`) || y.startsWith(`${x}.`);
}

/** The names both texts write with a version, and no version in common: the tool moved on. */
export function versionsChanged(
  newer: VersionedNames,
  older: VersionedNames,
): { name: string; from: string[]; to: string[] }[] {
  const out: { name: string; from: string[]; to: string[] }[] = [];
  for (const [name, to] of newer) {
    const from = older.get(name);
    if (!from || [...from].some((a) => [...to].some((b) => sameVersion(a, b)))) continue;
    // "supports Android 12+" and "needs the Android 14 SDK" are two things of Android: a minimum moves only
    // against a minimum ("Node 18+" -> "Node 20+").
    if ([...from].every(isMinimum) !== [...to].every(isMinimum)) continue;
    out.push({ name, from: [...from], to: [...to] });
  }
  return out;
}
