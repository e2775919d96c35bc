import { type NamedThings, namedThings } from "../../text/otherNamedThings.js";
import { RecentMemo } from "../../text/recentMemo.js";
import { type ReportedOccasion, reportedOccasion } from "../../text/reportedOccasion.js";
import { type VersionedNames, versionedNames } from "../../text/versionedNames.js";
import { type ChangeStatement, changeStatements } from "./changeStatements.js";
import { type StatementTokens, statedClauses, statementTokens } from "./statementTokens.js";

/** What the detectors read of a text, computed once per text: a memory is judged against many others. */
export interface Analysis {
  tokens: StatementTokens;
  changes: ChangeStatement[];
  /** The clauses of its sentences that are not questions. */
  clauses: string[];
  /** What it names as the thing it is about (numbered things, a numbered label, environments). */
  names: NamedThings;
  versions: VersionedNames;
  /** What it reports of something that ran (commands, error), if it reports an outcome. */
  occasion: ReportedOccasion | undefined;
}

/**
 * Texts analysed lately: a revise batch compares each memory with up to a hundred candidates, and a
 * bulk import compares older memories again batch after batch (a few MB for the lot).
 */
const analyses = new RecentMemo<Analysis>(16_384);

export function analysed(text: string): Analysis {
  return analyses.get(text, analyse);
}

function analyse(text: string): Analysis {
  return {
    tokens: statementTokens(text),
    changes: changeStatements(text),
    clauses: statedClauses(text),
    names: namedThings(text),
    versions: versionedNames(text),
    occasion: reportedOccasion(text),
  };
}
