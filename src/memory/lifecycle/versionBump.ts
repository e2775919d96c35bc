import { FAILURE_STEMS } from "../../text/outcomeWords.js";
import { SAYS_CHANGE } from "../../text/saysChange.js";
import { stem } from "../../text/stem.js";
import { words } from "../../text/tokenize.js";
import { type VersionedNames, versionsChanged } from "../../text/versionedNames.js";
import { escapeRegExp } from "../../util/escapeRegExp.js";
import type { Judgement } from "./judgement.js";
import {
  missing,
  negatedWhereNamed,
  negationClauses,
  type StatementTokens,
  shared,
  statementTokens,
} from "./statementTokens.js";

/** Words of a newer text that make its version a plan or a prerelease, not the version in use. */
const PLANNED =
  /\b(?:will|plan(?:s|ned|ning)?|going\s+to|should|would|could|might|once|until|if|upgrading\s+to|try(?:ing)?|tried|beta|rc|preview)\b/i;

/** At most this many other subject words, an older memory is a statement of the version itself. */
const SHORT = 4;

/**
 * Detector (e): the same named tool at another version ("Both reporting replicas run MySQL 5.7" /
 * "The reporting replicas are on MySQL 8.0; each upgrade is tried on a staging replica first"). The version
 * detector (b) needs two nearly identical sentences and (a) a statement of change; a newer memory
 * usually restates the new version in its own words, with more around it.
 *
 * Both must share two subject words beside the tool (the place it runs: "reporting replicas", "mobile app"),
 * since one project runs a tool at two versions in two places (the frontend on Node 20, a Lambda on
 * Node 18). A short older memory, or one that shares at least half of what else it says, is about
 * the version and is replaced; a longer one says more than the version, and a person decides. So
 * does a newer memory whose version is a plan, a prerelease or a failure seen ("builds fail on Xcode
 * 16 beta").
 */
export function versionBumped(
  newer: { text: string; tokens: StatementTokens; versions: VersionedNames },
  older: { text: string; tokens: StatementTokens; versions: VersionedNames },
): Judgement | undefined {
  const changes = versionsChanged(newer.versions, older.versions);
  if (changes.length === 0) return undefined;
  // "do not run MySQL 8.0 yet" says nothing of the version in use; a negation about something
  // else ("CI runs Node 20; never use nvm there") leaves the version standing.
  const names = changes.map((change) => change.name);
  if (negatedAbout(newer.text, names) || negatedAbout(older.text, names)) return undefined;
  const toolWords = new Set(changes.flatMap((change) => words(change.name).map(stem)));
  const context = missing(older.tokens.subject, toolWords);
  const common = shared(new Set(context), newer.tokens.subject).length;
  const what = `version change: ${changes.map((c) => `${c.name} ${c.from.join("/")} -> ${c.to.join("/")}`).join(", ")}`;
  // Sharing a word or none beside the tool shows no common place: "the legacy Lambdas run on Node
  // 18" and "the new API service runs on Node 20" both hold. A newer memory that says it moved ("X
  // was upgraded to Ruby 3.3", "the image ships Ruby 3.3 now") may leave the older out of date, and a
  // person decides.
  if (common < 2)
    return SAYS_CHANGE.test(newer.text) && !PLANNED.test(newer.text)
      ? { verdict: "review", reason: `${what}; the memories share little else` }
      : undefined;
  // A failure seen on a version ("builds fail on Xcode 16") says nothing of the version in use.
  const reportsFailure = [...newer.tokens.subject].some((word) => FAILURE_STEMS.has(word));
  if (reportsFailure || PLANNED.test(newer.text))
    return { verdict: "review", reason: `${what}; the newer memory may not say the version is in use` };
  const aboutTheVersion = context.length <= SHORT || common * 2 >= context.length;
  if (!aboutTheVersion) return { verdict: "review", reason: `${what}; this memory says more than the version` };
  // "CI runs Node 20 on Ubuntu; never use nvm there": a clause that neither names the tool nor shares a
  // word with the newer memory is knowledge the replacement does not carry.
  const aside = negationClauses(older.text).find(
    (clause) => !namesOneOf(clause, names) && !shared(statementTokens(clause).subject, newer.tokens.subject).length,
  );
  if (aside !== undefined) return { verdict: "review", reason: `${what}; only this memory says "${aside}"` };
  // "The API tests run with npm run test:api against Postgres 14" / "... now run against Postgres 16
  // in Docker": superseding would hide the command with the version. A value of the older memory
  // (a command, a path, a port) that the newer one does not restate, and that is not the old version
  // itself (`postgres:14`), is knowledge the replacement does not carry.
  const from = changes.flatMap((change) => change.from);
  const kept = missing(older.tokens.values, newer.tokens.values).filter(
    (value) => !from.some((version) => holdsVersion(value, version)),
  );
  return kept.length === 0
    ? { verdict: "supersede", reason: what }
    : { verdict: "review", reason: `${what}; only this memory says ${kept.map((v) => `"${v}"`).join(", ")}` };
}

/** Whether a value is the version or carries it ("14", "postgres:14", "node@18.19", "v14"). */
function holdsVersion(value: string, version: string): boolean {
  return new RegExp(String.raw`(?:^|[^\d.])v?${escapeRegExp(version)}(?:$|[^\d])`).test(value);
}

/** Whether a clause naming one of the tools holds a negation. */
function negatedAbout(text: string, names: string[]): boolean {
  return negatedWhereNamed(text, (clause) => namesOneOf(clause, names)) ?? false;
}

function namesOneOf(clause: string, names: string[]): boolean {
  return new RegExp(String.raw`(?<![\w.-])(?:${names.map(escapeRegExp).join("|")})(?![\w-])`, "i").test(clause);
}
