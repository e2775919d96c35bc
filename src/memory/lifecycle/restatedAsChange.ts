import { SAYS_CHANGE, spokenLine } from "../../text/saysChange.js";
import { stem } from "../../text/stem.js";
import { words } from "../../text/tokenize.js";
import type { ChangeStatement } from "./changeStatements.js";
import type { Judgement } from "./judgement.js";
import { missing, phraseStems, type StatementTokens, shared, writtenForm } from "./statementTokens.js";

const CHANGE_WORDS = new RegExp(SAYS_CHANGE.source, "gi");

/**
 * Detector (i), half-sure: a newer memory that says it is a change ("now", "switched", "no longer",
 * "was decommissioned") and restates what the older one is about, in words of its own: "The Celery
 * broker is Redis now; RabbitMQ was retired" against "The Celery workers use RabbitMQ as their
 * broker", "CI for the tool is GitHub Actions; the Jenkins box was decommissioned" against "CI for
 * the tool runs on a self-hosted Jenkins". The detectors before it read a change by its form (one
 * value, one tool, one word in place of another); a rewrite in other words names no old value to
 * match, so the older one is marked "may be out of date" for a person, never replaced.
 *
 * The two must share at least two subject words (the words that say when or that a change happened
 * do not count), and those must be at least half of the older memory's: what it says is restated.
 * A memory that shares a word or two with a change statement of its project ("the dashboard",
 * "Vercel") and says more besides is about another thing of it. Without a word of change nothing happens: two statements that read alike
 * and both hold (two services, two environments) are look-alikes, not an update.
 */
export function restatedAsChange(
  n: StatementTokens,
  o: StatementTokens,
  texts: { newer: string; older: string },
  changes: readonly ChangeStatement[],
): Judgement | undefined {
  const said = texts.newer.match(CHANGE_WORDS);
  if (!said || spokenLine(texts.newer) || spokenLine(texts.older)) return undefined;
  // A change that names what it left ("now uses sharp instead of axios", "RabbitMQ was retired")
  // leaves out of date only a memory that still names it, which the change detector reads; one
  // that does not ("we pin sharp to 8.18") is about what came in or another thing.
  const left = changes.filter((change) => change.kind === "obsolete");
  const names = (thing: string) =>
    texts.older.toLowerCase().includes(thing.toLowerCase()) ||
    (phraseStems(thing).length > 0 && phraseStems(thing).every((word) => o.subject.has(word)));
  if (left.length > 0 && !left.some((change) => names(change.obsolete))) return undefined;
  const change = new Set(said.flatMap((phrase) => words(phrase).map(stem)));
  const newer = new Set(missing(n.subject, change));
  const older = new Set(missing(o.subject, change));
  const common = shared(newer, older);
  if (common.length < 2 || common.length * 2 < older.size) return undefined;
  // Two shared words ("tests run") are what two entries of a list about one thing share ("tests run in
  // CI" / "tests run with vitest now"); a value each states and the other does not ("3 nodes" / "2
  // nodes", "Go 1.20" / "go 1.22") says they give one attribute two values.
  if (common.length === 2 && (missing(n.values, o.values).length === 0 || missing(o.values, n.values).length === 0))
    return undefined;
  // Sharing only the words of a code-like name ("billing-worker") says the same thing, not the same
  // attribute of it: "billing-worker now listens on port 3881" leaves "we pin sharp in billing-worker".
  const plain = plainWords(texts.newer);
  if (!common.some((word) => plain.has(word))) return undefined;
  return {
    verdict: "review",
    reason: `said as a change about the same subject (${common.map((word) => writtenForm(texts.newer, word).toLowerCase()).join(", ")}); the older memory may be out of date`,
  };
}

/** Stems of the words a text writes on their own, outside code-like names (`a-b`, `a_b`, `a.b`, `a/b`). */
function plainWords(text: string): Set<string> {
  const out = new Set<string>();
  for (const token of text.split(/\s+/)) {
    const bare = token.replace(/^[^\w]+|[^\w]+$/g, "");
    if (/\w[-_./:@]\w/.test(bare)) continue;
    for (const word of words(bare)) out.add(stem(word));
  }
  return out;
}
