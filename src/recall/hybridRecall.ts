import type { RecallRequest, RecallResponse } from "../memory/types.js";
import { errorMessage } from "../util/errors.js";
import { byScoreDesc, type Candidate } from "./candidate.js";
import { fuseCandidates } from "./fuseCandidates.js";
import { keywordLeg } from "./keywordLeg.js";
import { analyzeQuery } from "./queryAnalyzer.js";
import type { RecallDeps } from "./recallDeps.js";
import { recallStages } from "./recallStages.js";
import type { RecallContext, RecallStage } from "./stage.js";
import { stageTimer } from "./stageTimer.js";
import { supersededChains } from "./supersededChains.js";
import { toResults } from "./toResults.js";
import { vectorCandidates } from "./vectorLeg.js";

/** Loads the text of the candidates that do not have it yet. */
function loadContents(deps: RecallDeps, candidates: Candidate[]): void {
  const missing = candidates.filter((c) => c.content === undefined);
  if (missing.length === 0) return;
  const contents = deps.memories.contents(missing.map((c) => c.id));
  for (const c of missing) c.content = contents.get(c.id) ?? "";
}

/**
 * Hybrid recall: keyword and vector legs -> the union of their memories, live rows in the wanted
 * scopes only (authorization) -> exact cosines and fused scores -> the ranking stages in order
 * (`recallStages`) -> top k, hydrated. Read-only; the store bumps usage counters of what it returns.
 */
export async function hybridRecall(
  deps: RecallDeps,
  request: RecallRequest,
  stages: RecallStage[] = recallStages(deps.config),
): Promise<RecallResponse> {
  const { config } = deps;
  const timer = stageTimer();
  const warnings: string[] = [];
  const k = request.k ?? Math.min(config.defaultK, config.maxK);
  const query = analyzeQuery(request.query);
  const filter = request.types ? { scopes: request.scopes, types: request.types } : { scopes: request.scopes };

  let queryVector: Float32Array | undefined;
  try {
    queryVector = (await deps.provider.embed([request.query]))[0];
  } catch (error) {
    warnings.push(`vector leg skipped: ${errorMessage(error)}`);
  }
  if (queryVector && !queryVector.some((x) => x !== 0)) queryVector = undefined;
  timer.lap("embed");
  const authorWords = config.author.enabled ? deps.memories.authorsNamed(query.terms, request.scopes) : [];
  const legs = keywordLeg(deps, { query, scopes: request.scopes, authorWords });
  timer.lap("keyword");
  const vectorIds = queryVector ? vectorCandidates(deps, queryVector, request.scopes) : [];
  timer.lap("vector");

  const ran: RecallStage[] = [];
  const fuse = (ids: number[]) => fuseCandidates(deps, { refs: deps.memories.getRefs(ids, filter), legs, queryVector });
  const ctx: RecallContext = {
    deps,
    request,
    query,
    k,
    queryVector,
    authorWords,
    warnings,
    admit(ids) {
      const admitted = fuse(ids);
      for (const stage of ran) stage.onAdmit?.(ctx, admitted);
      return admitted;
    },
  };
  let candidates = fuse([...new Set([...legs.keyword.keys(), ...legs.hint.keys(), ...vectorIds])]);
  timer.lap("fuse");
  for (const stage of stages) {
    if (stage.needsContent) loadContents(deps, stage.needsContent(ctx, candidates));
    candidates = await stage.apply(ctx, candidates);
    ran.push(stage);
    timer.lap(stage.name);
  }
  candidates.sort(byScoreDesc);
  const results = toResults(deps, candidates.slice(0, k), request.expand === true);
  if (request.includeSuperseded) {
    // Attached to their successors after the cut: a replaced memory never takes a place in the top k.
    const chains = supersededChains(deps.memories, { ids: results.map((r) => r.id), scopes: request.scopes });
    for (const result of results) {
      const chain = chains.get(result.id);
      if (chain) result.superseded = chain;
    }
  }
  // A pair the detectors were not sure of is still open: the agent hears which result may be outdated.
  const doubts = deps.reviews.doubtsAbout(results.map((r) => r.id));
  for (const result of results) {
    const doubt = doubts.get(result.id);
    if (doubt) result.doubted = doubt;
  }
  timer.lap("hydrate");
  return { results, timings: timer.done(), warnings };
}
