import type { RecallResult } from "../memory/types.js";
import type { Candidate } from "./candidate.js";
import type { RecallDeps } from "./recallDeps.js";

/** Items shown per result with `expand`: the provenance range, capped so one result cannot flood. */
const MAX_EVIDENCE_ITEMS = 20;

/** Loads the full rows of the final top k and shapes them as results, in rank order. */
export function toResults(deps: RecallDeps, top: Candidate[], expand: boolean): RecallResult[] {
  const records = new Map(
    deps.memories
      .getLive(
        top.map((c) => c.id),
        { scopes: "all" },
      )
      .map((r) => [r.id, r]),
  );
  const results: RecallResult[] = [];
  for (const c of top) {
    const record = records.get(c.id);
    if (!record) continue;
    const result: RecallResult = {
      id: c.id,
      content: record.content,
      score: Math.round(c.score * 10_000) / 10_000,
      type: record.type,
      scope: record.scope,
      ref: record.ref,
      provenance: record.provenance,
      sources: [...c.sources],
    };
    const { sessionId, itemFrom, itemTo } = record.provenance;
    if (expand && sessionId !== undefined && itemFrom !== undefined) {
      result.evidence = deps.transcripts.items(sessionId, itemFrom, itemTo ?? itemFrom, MAX_EVIDENCE_ITEMS);
    }
    results.push(result);
  }
  if (expand) joinTranscripts(deps, results);
  return results;
}

/** Joins each result's pushed session transcript, looked up in one batch for the whole result set. */
function joinTranscripts(deps: RecallDeps, results: RecallResult[]): void {
  const keys = [...new Set(results.flatMap((r) => (r.provenance.sessionId ? [r.provenance.sessionId] : [])))];
  const transcripts = deps.transcripts.transcripts(keys);
  for (const result of results) {
    const found = result.provenance.sessionId ? transcripts.get(result.provenance.sessionId) : undefined;
    if (found) result.transcript = { sessionKey: found.sessionKey, content: found.content, createdAt: found.createdAt };
  }
}
