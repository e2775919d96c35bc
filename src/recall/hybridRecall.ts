import type { RecallRequest, RecallResponse } from "../memory/types.js";
import type { MemoryRef } from "../store/repositories/memoryRepository.js";
import { contentStems } from "../text/tokenize.js";
import { errorMessage } from "../util/errors.js";
import { applyAuthorPrior, byNamedAuthor } from "./authorPrior.js";
import { idf } from "./calibrate.js";
import { byScoreDesc, type Candidate } from "./candidate.js";
import { contextAnchors, linkNeighbors, spreadContext } from "./contextSpread.js";
import { applyDampening } from "./dampening.js";
import { capHintOnly, fuseScores } from "./fuse.js";
import { applyGraphBoost } from "./graphBoost.js";
import { keywordLeg } from "./keywordLeg.js";
import { applyListLengthPrior } from "./listLengthPrior.js";
import { analyzeQuery } from "./queryAnalyzer.js";
import type { RecallDeps } from "./recallDeps.js";
import { rerankStage } from "./rerankStage.js";
import { stageTimer } from "./stageTimer.js";
import { applyTimeAnswerPrior } from "./timeAnswerPrior.js";
import { toResults } from "./toResults.js";
import { exactCosines, vectorCandidates } from "./vectorLeg.js";

/** How many top candidates may lend score to their session neighbours. */
const CONTEXT_ANCHORS = 30;
/** Reranking and dampening look at this many leading candidates (at least 3 k): their text is loaded. */
const HEAD = 50;

/**
 * The query's vector. A provider that weights words (the hashed sketch) gets the store's IDF, so the
 * vector leg matches on what is rare in the store instead of on words every memory repeats.
 */
async function embedQuery(deps: RecallDeps, query: string): Promise<Float32Array | undefined> {
  const { provider, search, config } = deps;
  if (!config.vectorIdf || !provider.embedWeighted) return (await provider.embed([query]))[0];
  const frequencies = search.documentFrequencies([...new Set(contentStems(query))]);
  const corpusSize = Math.max(1, search.corpusSizeEstimate());
  return provider.embedWeighted(query, (s) => idf(corpusSize, frequencies.get(s) ?? 0));
}

/** Loads the text of the candidates that do not have it yet. */
function loadContents(deps: RecallDeps, candidates: Candidate[]): void {
  const missing = candidates.filter((c) => c.content === undefined);
  if (missing.length === 0) return;
  const contents = deps.memories.contents(missing.map((c) => c.id));
  for (const c of missing) c.content = contents.get(c.id) ?? "";
}

/**
 * Hybrid recall: keyword and vector legs -> authorization (live rows in the wanted scopes) -> exact
 * fusion -> time-answer prior -> conversation context -> author prior -> min score -> graph boost -> list length prior -> optional rerank ->
 * dampening -> top k. Read-only; the store bumps usage counters of what it returns.
 */
export async function hybridRecall(deps: RecallDeps, request: RecallRequest): Promise<RecallResponse> {
  const { config } = deps;
  const timer = stageTimer();
  const warnings: string[] = [];
  const k = request.k ?? Math.min(config.defaultK, config.maxK);
  const query = analyzeQuery(request.query);
  const filter = request.types ? { scopes: request.scopes, types: request.types } : { scopes: request.scopes };

  let queryVector: Float32Array | undefined;
  try {
    queryVector = await embedQuery(deps, request.query);
  } catch (error) {
    warnings.push(`vector leg skipped: ${errorMessage(error)}`);
  }
  if (queryVector && !queryVector.some((x) => x !== 0)) queryVector = undefined;
  timer.lap("embed");
  const authorWords = config.author.enabled ? deps.memories.authorsNamed(query.terms, request.scopes) : [];
  const { keyword, hint } = keywordLeg(deps, query, request.scopes, authorWords);
  timer.lap("keyword");
  const vectorIds = queryVector ? vectorCandidates(deps, queryVector, request.scopes) : [];
  timer.lap("vector");

  const candidates = new Map<number, Candidate>();
  const admit = (refs: MemoryRef[]) => {
    const cosines = queryVector ? exactCosines(deps, queryVector, refs) : new Map<number, number>();
    for (const ref of refs) {
      const c: Candidate = {
        id: ref.id,
        ref,
        keyword: keyword.get(ref.id) ?? 0,
        vector: cosines.get(ref.id) ?? 0,
        hint: hint.get(ref.id) ?? 0,
        score: 0,
        sources: new Set(),
      };
      if (c.keyword > 0) c.sources.add("keyword");
      if (c.vector > 0) c.sources.add("vector");
      if (c.hint > 0) c.sources.add("hint");
      const fused = fuseScores({ ...c, alpha: queryVector ? config.alpha : 0 });
      c.score = capHintOnly(fused, { ...c, cap: config.hints.hintOnlyCap });
      candidates.set(c.id, c);
    }
  };
  admit(deps.memories.getRefs([...new Set([...keyword.keys(), ...hint.keys(), ...vectorIds])], filter));
  timer.lap("fuse");

  // The answer-type prior weighs each memory's own evidence, before neighbours lend any of it.
  const timePrior = (ids: number[]) => {
    if (!query.asksWhen || config.timeAnswer.penalty >= 1 || ids.length === 0) return;
    const subjects = ids.map((id) => candidates.get(id)).filter((c): c is Candidate => c !== undefined);
    applyTimeAnswerPrior(subjects, deps.memories.timeMentions(ids), config.timeAnswer.penalty);
  };
  timePrior([...candidates.keys()]);
  if (config.context.enabled) {
    const anchors = contextAnchors(candidates.values(), CONTEXT_ANCHORS);
    const neighbors = deps.memories.sessionNeighbors(
      anchors.map((a) => ({ sessionId: a.ref.sessionId!, item: a.ref.itemFrom!, scope: a.ref.scope })),
      config.context.window,
    );
    const links = linkNeighbors(anchors, neighbors, config.context.window);
    const fresh = [...new Set(links.map((l) => l.neighborId))].filter((id) => !candidates.has(id));
    admit(deps.memories.getRefs(fresh, filter));
    timePrior(fresh);
    spreadContext(candidates, links, config.context);
    timer.lap("context");
  }
  if (config.author.addressedPenalty < 1) loadContents(deps, byNamedAuthor([...candidates.values()], authorWords));
  applyAuthorPrior([...candidates.values()], authorWords, config.author);

  let ranked = [...candidates.values()].filter((c) => c.score >= config.minScore);
  if (config.graph.enabled && ranked.length > 0) {
    if (applyGraphBoost(deps, { ranked, terms: query.terms, scopes: request.scopes }).timedOut) {
      warnings.push("graph boost timed out; partial boost applied");
    }
    timer.lap("graph");
  }
  ranked.sort(byScoreDesc);
  // Only the head can still reach the top k: rerankers and dampening move scores by bounded factors.
  const head = ranked.slice(0, Math.max(HEAD, 3 * k, config.reranker.enabled ? config.reranker.topN : 0));
  loadContents(deps, head);
  if (query.asksList) {
    applyListLengthPrior(head, config.listLength);
    head.sort(byScoreDesc);
  }
  ranked = await rerankStage(deps, { query: request.query, ranked: head, queryVector, warnings });
  timer.lap("rerank");
  applyDampening({
    candidates: ranked,
    queryStems: query.stems,
    degrees: () => deps.graph.entityDegrees(ranked.map((c) => c.id)),
    config: config.dampening,
  });
  ranked.sort(byScoreDesc);
  timer.lap("dampening");
  const results = toResults(deps, ranked.slice(0, k), request.expand === true);
  timer.lap("hydrate");
  return { results, timings: timer.done(), warnings };
}
