import { type NamedThings, namedThings } from "../../text/otherNamedThings.js";
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

/** Texts analysed lately; a revise batch compares each memory with up to a hundred candidates. */
const ANALYSED_CAP = 4096;

const analyses = new Map<string, Analysis>();

export function analysed(text: string): Analysis {
  const known = analyses.get(text);
  if (known) return known;
  if (analyses.size >= ANALYSED_CAP) analyses.clear();
  const analysis = {
    tokens: statementTokens(text),
    changes: changeStatements(text),
    clauses: statedClauses(text),
    names: namedThings(text),
    versions: versionedNames(text),
    occasion: reportedOccasion(text),
  };
  analyses.set(text, analysis);
  return analysis;
}
