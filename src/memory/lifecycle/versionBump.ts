import { stem } from "../../text/stem.js";
import { words } from "../../text/tokenize.js";
import { type VersionedNames, versionsChanged } from "../../text/versionedNames.js";
import type { Judgement } from "./judgement.js";
import { FAILURE_STEMS, missing, type StatementTokens, shared } from "./statementTokens.js";

/** Words of a newer text that make its version a plan or a prerelease, not the version in use. */
const PLANNED =
  /\b(?:will|plan(?:s|ned|ning)?|going\s+to|should|would|could|might|once|until|if|upgrading\s+to|try(?:ing)?|tried|beta|rc|preview)\b/i;

/** At most this many other subject words, an older memory is a statement of the version itself. */
const SHORT = 4;

/**
 * Detector (e): the same named tool at another version ("Both EKS clusters run Kubernetes 1.27" /
 * "The EKS clusters are on Kubernetes 1.30; upgrades go one minor version at a time"). The version
 * detector (b) needs two nearly identical sentences and (a) a statement of change; a newer memory
 * usually restates the new version in its own words, with more around it.
 *
 * Both must share two subject words beside the tool (the place it runs: "EKS clusters", "field app"),
 * since one project runs a tool at two versions in two places (the frontend on Node 20, a Lambda on
 * Node 18). A short older memory, or one that shares at least half of what else it says, is about
 * the version and is replaced; a longer one says more than the version, and a person decides. So
 * does a newer memory whose version is a plan, a prerelease or a failure seen ("builds fail on Xcode
 * 16 beta").
 */
export function versionBumped(
  newer: { text: string; tokens: StatementTokens; versions: VersionedNames },
  older: { tokens: StatementTokens; versions: VersionedNames },
): Judgement | undefined {
  if (newer.tokens.negated || older.tokens.negated) return undefined;
  const changes = versionsChanged(newer.versions, older.versions);
  if (changes.length === 0) return undefined;
  const toolWords = new Set(changes.flatMap((change) => words(change.name).map(stem)));
  const context = missing(older.tokens.subject, toolWords);
  const common = shared(new Set(context), newer.tokens.subject).length;
  if (common === 0) return undefined;
  const what = `version change: ${changes.map((c) => `${c.name} ${c.from.join("/")} -> ${c.to.join("/")}`).join(", ")}`;
  if (common < 2) return { verdict: "review", reason: `${what}; the memories share little else` };
  // A failure seen on a version ("builds fail on Xcode 16") says nothing of the version in use.
  const reportsFailure = [...newer.tokens.subject].some((word) => FAILURE_STEMS.has(word));
  if (reportsFailure || PLANNED.test(newer.text))
    return { verdict: "review", reason: `${what}; the newer memory may not say the version is in use` };
  const aboutTheVersion = context.length <= SHORT || common * 2 >= context.length;
  return aboutTheVersion
    ? { verdict: "supersede", reason: what }
    : { verdict: "review", reason: `${what}; this memory says more than the version` };
}
