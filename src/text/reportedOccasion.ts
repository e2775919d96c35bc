import { commandsIn, containsCommand } from "./commandSpans.js";
import { statedOutcome } from "./outcomeWords.js";
import { contentStems } from "./tokenize.js";

/**
 * What a statement that reports something that happened is about: for what ran, the commands it
 * names and, for a failure, what identifies the error; for files written, which files. Undefined for
 * a statement that reports neither (a setting, a preference, a decision): those are compared by their
 * words.
 */
export interface ReportedOccasion {
  /** It reports an outcome of something that ran ("worked", "failed with ..."). */
  ran: boolean;
  failure: boolean;
  /** Its code spans, whitespace collapsed. */
  commands: string[];
  /** What names the error: its quoted output, error codes (with the address or path that follows one) and exit statuses, lower-cased. */
  error: Set<string>;
  /** The files it says were written or edited, when it records such a change; null otherwise. */
  written: Set<string> | null;
  /** The content words of each sentence it quotes someone saying ("The user said: "..."), if any. */
  said: Set<string>[];
}

/** Words that report what someone said, before the quote of it. */
const SPEECH =
  /\b(?:said|says|asked|asks|corrected|told|stated|insisted|replied|answered|complained|wrote|in (?:their|his|her|the user's) (?:own )?words)\b/i;
/** A quote of words (not of a value): at least this many words. */
const SAID_MIN_WORDS = 4;
/** Two quotes sharing at least this much of their content words (Dice) may say one thing. */
const SAME_SAYING = 0.5;

/**
 * Words that record files changed on an occasion ("the agent wrote ...", "files edited: ..."). A
 * passive present ("the config is written to ~/.app") states where something goes, a setting that
 * can change, and is left to the detectors.
 */
const WRITTEN = /\b(?:wrote|rewrote|edited)\b|\bfiles? (?:written|edited|modified|created|changed|touched)\b/i;
/** A file path or name: a slash between word characters, or a name with an extension. */
const PATH = /[\w.@~-]*(?:\w\/\w|\.[a-z][a-z0-9]{0,5}\b)[\w./@~-]*/gi;

/**
 * Error names and codes (ENOENT, ECONNREFUSED, TS2739, E0425, CS0246), with the address or path
 * that follows one ("ECONNREFUSED 127.0.0.1:5432" and "... :6379" are two services down).
 */
const ERROR_CODE = /\b(?:E[A-Z]{3,}|[A-Z]{1,5}\d{2,5})\b(?::?\s+([^\s,;()'"]*(?:\d|\w[/:.]\w)[^\s,;()'"]*))?/g;
const EXIT_STATUS = /\bexit(?:\s+(?:code|status))?\s*[:=]?\s*(-?\d+)/gi;

export function reportedOccasion(text: string): ReportedOccasion | undefined {
  const outcome = statedOutcome(text);
  const prose = text.replace(/`[^`\n]*`|"[^"\n]*"/g, " ");
  const written = WRITTEN.test(prose) ? pathsIn(text) : null;
  const said = SPEECH.test(prose) ? quotedSayings(text) : [];
  if (outcome === "" && !written && said.length === 0) return undefined;
  const error = new Set<string>();
  const withoutCode = text.replace(/`[^`\n]*`/g, " ");
  for (const quote of withoutCode.matchAll(/"([^"\n]+)"/g)) error.add(flat(quote[1] ?? ""));
  const rest = withoutCode.replace(/"[^"\n]*"/g, " ");
  for (const code of rest.matchAll(ERROR_CODE)) error.add(flat(code[0]).replace(/[.:]+$/, ""));
  for (const status of rest.matchAll(EXIT_STATUS)) error.add(`exit ${status[1]}`);
  error.delete("");
  return {
    ran: outcome !== "",
    failure: outcome.includes("failure"),
    commands: commandsIn(text),
    error,
    written: written && written.size > 0 ? written : null,
    said,
  };
}

/** The content words of each quoted sentence of a text (outside code spans), quotes of a value aside. */
function quotedSayings(text: string): Set<string>[] {
  return [...text.replace(/`[^`\n]*`/g, " ").matchAll(/["\u201c]([^"\u201d\n]+)["\u201d]/g)]
    .filter((quote) => (quote[1] ?? "").trim().split(/\s+/).length >= SAID_MIN_WORDS)
    .map((quote) => new Set(contentStems(quote[1] ?? "")))
    .filter((stems) => stems.size > 0);
}

/** The file paths and names a text holds, lower-cased, sentence punctuation aside. */
function pathsIn(text: string): Set<string> {
  return new Set([...text.matchAll(PATH)].map((match) => match[0].replace(/[.,:;]+$/, "").toLowerCase()));
}

/**
 * Whether two reports of what ran are about different things, and so never one the update of the
 * other: they name commands and share none (`mix test` failing says nothing about `mix dialyzer`),
 * or both report a failure and name it differently (another quoted message, error code or exit
 * status). A failure told in words only ("the build fails when the heap is below 4096 MB") names no
 * error: the detectors judge it. Each is a record of an occasion, true as it was seen; a person asked
 * whether one replaced the other is asked about nothing. So are two records of files written that
 * name other files ("the agent wrote src/a.ts" / "... docs/b.md"), and two quotes of what someone
 * said that share less than half their words ("The user corrected the agent: "...""). False when either reports no
 * outcome or they may be about the same thing: the detectors then judge them by their words.
 */
export function aboutOtherOccasions(a: ReportedOccasion | undefined, b: ReportedOccasion | undefined): boolean {
  if (!a || !b) return false;
  if (a.written && b.written && !sameSet(a.written, b.written)) return true;
  // Two quotes of what someone said, about other things: the frame around them ("The user corrected
  // the agent: ...") is all they share.
  if (a.said.length > 0 && b.said.length > 0 && !a.said.some((x) => b.said.some((y) => dice(x, y) >= SAME_SAYING)))
    return true;
  if (!a.ran || !b.ran) return false;
  if (a.commands.length > 0 && b.commands.length > 0 && !sharesCommand(a.commands, b.commands)) return true;
  return a.failure && b.failure && a.error.size > 0 && b.error.size > 0 && !sameSet(a.error, b.error);
}

/** One command of either list is, or holds as a whole command, one of the other's. */
function sharesCommand(a: readonly string[], b: readonly string[]): boolean {
  return a.some((x) => b.some((y) => containsCommand(x, y) || containsCommand(y, x)));
}

function dice(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  const both = [...a].filter((word) => b.has(word)).length;
  return (2 * both) / (a.size + b.size);
}

function sameSet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  return a.size === b.size && [...a].every((item) => b.has(item));
}

function flat(text: string): string {
  return text.replace(/\s+/g, " ").trim().toLowerCase();
}
