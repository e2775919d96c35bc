import type { MemoryRecord, RecallRequest, RecallResponse } from "../memory/types.js";
import { errorMessage } from "../util/errors.js";
import { applyAuthorPrior } from "./authorPrior.js";
import { byScoreDesc, type Candidate } from "./candidate.js";
import { contextAnchors, linkNeighbors, spreadContext } from "./contextSpread.js";
import { applyDampening } from "./dampening.js";
import { capHintOnly, fuseScores } from "./fuse.js";
import { graphBoostIds } from "./graphBoost.js";
import { keywordLeg } from "./keywordLeg.js";
import { analyzeQuery } from "./queryAnalyzer.js";
import type { RecallDeps } from "./recallDeps.js";
import { rerankStage } from "./rerankStage.js";
import { toResults } from "./toResults.js";
import { exactCosines, vectorCandidates } from "./vectorLeg.js";

/** How many top candidates may lend score to their session neighbours. */
const CONTEXT_ANCHORS = 30;

/**
 * Hybrid recall: keyword and vector legs -> authorization (live rows in the wanted scopes) -> exact
 * fusion -> conversation context -> min score -> graph boost -> optional rerank -> dampening -> top k.
 * Read-only; the store bumps usage counters of what it returns.
 */
export async function hybridRecall(deps: RecallDeps, request: RecallRequest): Promise<RecallResponse> {
  const { config } = deps;
  const started = performance.now();
  const stages: Record<string, number> = {};
  const warnings: string[] = [];
  let mark = performance.now();
  const lap = (name: string) => {
    const now = performance.now();
    stages[name] = Math.round((now - mark) * 1000) / 1000;
    mark = now;
  };
  const k = Math.max(1, Math.min(request.k ?? config.defaultK, config.maxK));
  const query = analyzeQuery(request.query);
  const filter = request.types ? { scopes: request.scopes, types: request.types } : { scopes: request.scopes };

  let queryVector: Float32Array | undefined;
  try {
    [queryVector] = await deps.provider.embed([request.query]);
  } catch (error) {
    warnings.push(`vector leg skipped: ${errorMessage(error)}`);
  }
  lap("embed");
  const authorWords = config.author.enabled ? deps.memories.authorsNamed(query.terms, request.scopes) : [];
  const { keyword, hint } = keywordLeg(deps, query, request.scopes, authorWords);
  lap("keyword");
  const vectorIds = queryVector ? vectorCandidates(deps, queryVector, request.scopes) : [];
  lap("vector");

  const candidates = new Map<number, Candidate>();
  const admit = (records: MemoryRecord[]) => {
    const cosines = queryVector ? exactCosines(deps, queryVector, records) : new Map<number, number>();
    for (const record of records) {
      const c: Candidate = {
        id: record.id,
        record,
        keyword: keyword.get(record.id) ?? 0,
        vector: cosines.get(record.id) ?? 0,
        hint: hint.get(record.id) ?? 0,
        score: 0,
        sources: new Set(),
      };
      if (c.keyword > 0) c.sources.add("keyword");
      if (c.vector > 0) c.sources.add("vector");
      if (c.hint > 0) c.sources.add("hint");
      c.score = capHintOnly(fuseScores({ ...c, alpha: queryVector ? config.alpha : 0 }), {
        ...c,
        cap: config.hints.hintOnlyCap,
      });
      candidates.set(c.id, c);
    }
  };
  admit(deps.memories.getLive([...new Set([...keyword.keys(), ...hint.keys(), ...vectorIds])], filter));
  lap("fuse");

  if (config.context.enabled) {
    const anchors = contextAnchors(candidates.values(), CONTEXT_ANCHORS);
    const neighbors = deps.memories.sessionNeighbors(
      anchors.map((a) => ({
        sessionId: a.record.provenance.sessionId!,
        item: a.record.provenance.itemFrom!,
        scope: a.record.scope,
      })),
      config.context.window,
    );
    const links = linkNeighbors(anchors, neighbors, config.context.window);
    admit(
      deps.memories.getLive(
        [...new Set(links.map((l) => l.neighborId))].filter((id) => !candidates.has(id)),
        filter,
      ),
    );
    spreadContext(candidates, links, config.context);
    lap("context");
  }

  applyAuthorPrior([...candidates.values()], authorWords, config.author.penalty);
  let ranked = [...candidates.values()].filter((c) => c.score >= config.minScore);
  if (config.graph.enabled && ranked.length > 0) {
    const boost = graphBoostIds(deps.graph, {
      tokens: query.terms,
      scopes: request.scopes,
      deadlineMs: deps.clock() + config.graph.boostTimeoutMs,
      maxEntities: config.graph.maxEntities,
      maxNeighbors: config.graph.maxNeighbors,
      maxMemories: config.graph.maxMemories,
      now: deps.clock,
    });
    if (boost.timedOut) warnings.push("graph boost timed out; partial boost applied");
    const w = config.graph.boostWeight;
    for (const c of ranked) {
      if (!boost.ids.has(c.id)) continue;
      c.score = (1 - w) * c.score + w;
      c.sources.add("graph");
    }
    lap("graph");
  }
  ranked.sort(byScoreDesc);
  ranked = await rerankStage(deps, { query: request.query, ranked, queryVector, warnings });
  lap("rerank");
  applyDampening({
    candidates: ranked,
    queryStems: query.stems,
    degrees: () => deps.graph.entityDegrees(ranked.map((c) => c.id)),
    config: config.dampening,
  });
  ranked.sort(byScoreDesc);
  lap("dampening");
  const results = toResults(deps, ranked.slice(0, k), request.expand === true);
  lap("hydrate");
  return { results, timings: { totalMs: Math.round((performance.now() - started) * 1000) / 1000, stages }, warnings };
}
