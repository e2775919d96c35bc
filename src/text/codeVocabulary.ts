import { longestRuns } from "./longestRuns.js";
import { stem } from "./stem.js";

/**
 * Ways software people write the same thing: an abbreviation and its long form, a closed compound
 * and its open spelling, British and American spellings. Written from general knowledge of how code,
 * commit messages and tool docs are phrased, not from any evaluation set. Forms are lowercase; a
 * hyphen is a space ("end-to-end" is the word run "end to end", as the tokenizer sees it). A word may
 * sit in two groups: the groups are not merged, so "auth" reaches both "authentication" and
 * "authorization", but those two never reach each other.
 *
 * Left out on purpose, because the short form has a second common meaning in coding memories:
 * - "src", "lib", "ts", "js", "py": they are path segments and file extensions, present in nearly
 *   every memory that names a file, so a question saying "source", "library" or "typescript" would
 *   match every such memory;
 * - "cd" (the shell command, not continuous delivery), "ws" (workspace, whitespace, websocket),
 *   "spec" (a test file as often as a specification), "sync" (synchronous or synchronize), "req" /
 *   "res" (request, requirement; response, resource, result), "pg" (a page as often as PostgreSQL),
 *   "node" (a tree or graph node), "golang" -> "go" (a stop-like verb), "ssl" / "tls" (different
 *   protocols), "var" (the keyword, the /var directory);
 * - open spellings that are also ordinary word runs: "log in" ("the error log in JSON"), "check
 *   out" (to look at), "run time" (how long a run took, not the runtime).
 * Kept although not unambiguous, because the software sense dominates where agents write:
 * - "ci": also `npm ci`, which installs dependencies in CI;
 * - "pr": public relations or a press release are rare in coding sessions;
 * - "prod": SQLite's Porter stemmer reduces "production" to "product", so "prod" also reaches
 *   memories about products (the index's stemmer, not ours, and "production" alone does the same);
 * - "err": the variable name ("if err != nil") is about error handling too;
 * - "dev": also /dev and "devs" (developers), both near the development sense.
 */
const GROUPS: readonly string[] = [
  "e2e | end to end",
  "env | environment",
  "env var | environment variable | envvar",
  "dep | dependency",
  "db | database",
  "k8s | kubernetes",
  "repo | repository",
  "config | configuration | cfg",
  "ci | continuous integration",
  "auth | authentication | authn",
  "auth | authorization | authorisation | authz",
  "perf | performance",
  "pkg | package",
  "dir | directory | folder",
  "doc | documentation",
  "util | utility",
  "dev | development",
  "prod | production",
  "msg | message",
  "err | error",
  "arg | argument",
  "param | parameter",
  "impl | implementation",
  "async | asynchronous",
  "tmp | temp | temporary",
  "gh | github",
  "pr | pull request",
  "mr | merge request",
  "i18n | internationalization | internationalisation",
  "l10n | localization | localisation",
  "a11y | accessibility",
  "ui | user interface",
  "ux | user experience",
  "cli | command line",
  "os | operating system",
  "vm | virtual machine",
  "regex | regexp | regular expression",
  "oom | out of memory",
  "ttl | time to live",
  "tz | timezone | time zone",
  "yaml | yml",
  "postgres | postgresql",
  "mongo | mongodb",
  "nodejs | node js",
  "websocket | web socket",
  "gc | garbage collection | garbage collector",
  "infra | infrastructure",
  "admin | administrator",
  "ctx | context",
  "img | image",
  "setup | set up",
  "signup | sign up",
  "signin | sign in",
  "rollback | roll back",
  "backup | back up",
  "shutdown | shut down",
  "teardown | tear down",
  "startup | start up",
  "timeout | time out",
  "filename | file name",
  "hostname | host name",
  "username | user name",
  "codebase | code base",
  "dataset | data set",
  "allowlist | whitelist",
  "denylist | blocklist | blacklist",
];

/**
 * Tools named for the one thing they do, joined with that verb ("the linter" / "run lint"). Porter
 * keeps "linter" apart from "lint" (the stem "lint" is too short for it to strip -er) and "formatter"
 * apart from "format" (the doubled t stays), so the join is stated here. No general -er rule: it
 * would fold "user" into "use", "server" into "serve", "worker" into "work"; and tools named after
 * the most frequent verbs of coding memory stay out ("runner"/"run", "builder"/"build",
 * "tester"/"test", "logger"/"log", "watcher"/"watch"): there the verb is in so many memories that
 * a question about the tool would match them all. Pairs Porter already joins (compiler, transpiler,
 * minifier) are listed for completeness and add nothing at query time.
 */
const AGENT_NOUNS: readonly (readonly [agent: string, verb: string])[] = [
  ["linter", "lint"],
  ["formatter", "format"],
  ["bundler", "bundle"],
  ["debugger", "debug"],
  ["parser", "parse"],
  ["compiler", "compile"],
  ["transpiler", "transpile"],
  ["minifier", "minify"],
];

/**
 * The word and the singulars it may be a plural of ("deps" -> dep, "caches" -> cache, "indexes" ->
 * index, "dependencies" -> dependency), the word itself first. The table's forms are singular, so a
 * word matches a form when one of these is that form. Deliberately not Porter: Porter would take
 * "depends" to "dependency" and "product" to "production", widening what a table entry covers.
 */
export function singulars(word: string): string[] {
  const out = [word];
  if (word.length > 2 && word.endsWith("s") && !word.endsWith("ss")) out.push(word.slice(0, -1));
  if (word.length > 4 && word.endsWith("es")) out.push(word.slice(0, -2));
  if (word.length > 4 && word.endsWith("ies")) out.push(`${word.slice(0, -3)}y`);
  return out;
}

/** The groups of the first of the run's readings the table knows; a plural only on the last word. */
function groupsOf(run: readonly string[]): readonly string[][] | undefined {
  const head = run.slice(0, -1).join(" ");
  for (const last of singulars(run[run.length - 1] ?? "")) {
    const groups = BY_FORM.get(head === "" ? last : `${head} ${last}`);
    if (groups) return groups;
  }
  return undefined;
}

/** Table groups by each of their forms. */
const BY_FORM: ReadonlyMap<string, readonly string[][]> = (() => {
  const map = new Map<string, string[][]>();
  for (const line of GROUPS) {
    const forms = line.split("|").map((f) => f.trim());
    for (const form of forms) {
      map.set(form, [...(map.get(form) ?? []), forms]);
    }
  }
  return map;
})();

const LONGEST_FORM = Math.max(...GROUPS.flatMap((g) => g.split("|").map((f) => f.trim().split(" ").length)));

/** The verb a tool noun is named for, or the tool noun of a verb, with their inflections ("linters", "linting"). */
export function agentNounVariant(word: string): string | undefined {
  return AGENT_NOUN_BY_STEM.get(stem(word));
}

/** Each tool noun's and verb's stem to the other word of its pair (pairs Porter joins need no entry). */
const AGENT_NOUN_BY_STEM: ReadonlyMap<string, string> = new Map(
  AGENT_NOUNS.filter(([agent, verb]) => stem(agent) !== stem(verb)).flatMap(([agent, verb]) => [
    [stem(agent), verb],
    [stem(verb), agent],
  ]),
);

const stems = (form: string) => form.split(" ").map(stem).join(" ");

/** The group's forms other than `text`, leaving out those Porter already reduces to the same stems. */
function otherForms(text: string, groups: readonly string[][]): string[] {
  const seen = new Set([stems(text)]);
  const out: string[] = [];
  for (const form of groups.flat()) {
    const key = stems(form);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(form);
  }
  return out;
}

/** The other ways of writing one lowercase word: its table forms and its tool noun or verb. */
export function wordVariants(word: string): string[] {
  const forms = otherForms(word, groupsOf([word]) ?? []);
  const agent = agentNounVariant(word);
  return agent === undefined ? forms : otherForms(word, [[...forms, agent]]);
}

/** A run of two or more words the table knows, and the other ways of writing it. */
export interface PhraseVariants {
  /** The words as written, joined by spaces. */
  phrase: string;
  /** Other forms, each as words joined by spaces. */
  variants: string[];
}

/**
 * The multi-word forms of the table in a run of lowercase words (as `words()` returns them:
 * "end-to-end" is "end", "to", "end"), longest first, not overlapping.
 */
export function phraseVariants(words: readonly string[]): PhraseVariants[] {
  return longestRuns(words, { longest: LONGEST_FORM, shortest: 2, lookup: groupsOf }).flatMap(({ run, value }) => {
    const phrase = run.join(" ");
    const variants = otherForms(phrase, value);
    return variants.length > 0 ? [{ phrase, variants }] : [];
  });
}
