import { stem } from "./stem.js";
import { words } from "./tokenize.js";

/**
 * The words that report what happened when something ran, as stems (src/text/stem.ts): a failure
 * seen or a command seen to succeed. A statement holding them records an occasion, not a setting,
 * and two statements that report different outcomes of one command do not state the same thing.
 */

/**
 * Stems of the words that report a failure seen ("failed with", "throws", "crashed", "breaks"): what
 * follows is its output, and the statement is an incident, not a setting.
 */
export const FAILURE_STEMS: ReadonlySet<string> = new Set([
  "fail",
  "error",
  "crash",
  "throw",
  "threw",
  "panic",
  "panick",
  "broke",
  "break",
]);

/**
 * Stems of the words that report a command seen to succeed ("Command that worked: `...`", "`make docs`
 * succeeded"). Another command that worked does not make the first one stop working, so, like a
 * failure, such a statement records an occasion rather than a setting.
 */
export const SUCCESS_STEMS: ReadonlySet<string> = new Set(["work", "succeed", "succe", "success"]);

/** The outcomes a set of stems reports: "failure", "success", both or neither, as one comparable key. */
export function reportedOutcome(stems: ReadonlySet<string>): string {
  let failure = false;
  let success = false;
  for (const word of stems) {
    if (FAILURE_STEMS.has(word)) failure = true;
    if (SUCCESS_STEMS.has(word)) success = true;
  }
  return `${failure ? "failure" : ""}${success ? "success" : ""}`;
}

/**
 * The outcome a statement itself reports, read outside its code spans and quotes: those are the
 * commands and the output it cites ("`make check-errors`", "failed with "0 errors""), not what it says.
 */
export function statedOutcome(text: string): string {
  const said = text.replace(/`[^`\n]*`|"[^"\n]*"/g, " ");
  return reportedOutcome(new Set(words(said).map((word) => stem(word.replace(/'/g, "")))));
}
