import type { RecallResult } from "../memory/types.js";
import type { Candidate } from "./candidate.js";
import type { RecallDeps } from "./recallDeps.js";

/** Items shown per result with `expand`: the provenance range, capped so one result cannot flood. */
const MAX_EVIDENCE_ITEMS = 20;

export function toResults(deps: RecallDeps, ranked: Candidate[], expand: boolean): RecallResult[] {
  return ranked.map((c) => {
    const result: RecallResult = {
      id: c.id,
      content: c.record.content,
      score: Math.round(c.score * 10_000) / 10_000,
      type: c.record.type,
      scope: c.record.scope,
      ref: c.record.ref,
      provenance: c.record.provenance,
      sources: [...c.sources],
    };
    const { sessionId, itemFrom, itemTo } = c.record.provenance;
    if (expand && sessionId !== undefined && itemFrom !== undefined) {
      result.evidence = deps.transcripts.items(sessionId, itemFrom, itemTo ?? itemFrom, MAX_EVIDENCE_ITEMS);
    }
    return result;
  });
}
