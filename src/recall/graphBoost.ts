import type { RecallConfig } from "../config/recallConfig.js";
import type { GraphRepo } from "../store/contracts/graph.js";
import type { Clock } from "../util/clock.js";
import { errorMessage } from "../util/errors.js";
import type { Candidate } from "./candidate.js";

export interface GraphBoostResult {
  ids: Set<number>;
  timedOut: boolean;
  /** Why the graph could not be read; the boost is then empty. */
  error?: string;
}

export interface GraphBoostOptions {
  tokens: string[];
  scopes: string[] | "all";
  deadlineMs: number;
  maxEntities: number;
  maxNeighbors: number;
  maxMemories: number;
  now: () => number;
}

/**
 * Memories linked to the query's entities: tokens -> matching entities (most mentioned first) -> one
 * hop through relations -> memories mentioning any of them. Checked against the deadline after each
 * step; past it, what was collected so far is returned with `timedOut`. An error gives an empty set
 * with the reason in `error`: the boost is only ever additive, so losing it costs ranking quality,
 * never correctness, and the caller reports it.
 */
export function graphBoostIds(graph: GraphRepo, options: GraphBoostOptions): GraphBoostResult {
  const ids = new Set<number>();
  try {
    const entityIds = new Set<number>();
    for (const token of options.tokens) {
      if (token.length < 3) continue;
      for (const id of graph.entitiesMatching(token, options.maxEntities)) entityIds.add(id);
      if (entityIds.size >= options.maxEntities) break;
    }
    if (options.now() > options.deadlineMs) return { ids, timedOut: true };
    const seeds = [...entityIds].slice(0, options.maxEntities);
    const expanded = [...seeds, ...graph.neighbors(seeds, options.maxNeighbors)];
    if (options.now() > options.deadlineMs) return { ids, timedOut: true };
    for (const id of graph.memoriesMentioning(expanded, options.scopes, options.maxMemories)) ids.add(id);
    return { ids, timedOut: options.now() > options.deadlineMs };
  } catch (error) {
    return { ids: new Set(), timedOut: false, error: errorMessage(error) };
  }
}

/** Applies the boost to the ranked candidates in place: `(1 - w) * score + w` for linked memories. */
export function applyGraphBoost(
  deps: { graph: GraphRepo; clock: Clock },
  input: { ranked: Candidate[]; terms: string[]; scopes: string[] | "all"; config: RecallConfig["graph"] },
): GraphBoostResult {
  const { config } = input;
  const boost = graphBoostIds(deps.graph, {
    tokens: input.terms,
    scopes: input.scopes,
    deadlineMs: deps.clock() + config.boostTimeoutMs,
    maxEntities: config.maxEntities,
    maxNeighbors: config.maxNeighbors,
    maxMemories: config.maxMemories,
    now: deps.clock,
  });
  for (const c of input.ranked) {
    if (!boost.ids.has(c.id)) continue;
    c.score = (1 - config.boostWeight) * c.score + config.boostWeight;
    c.sources.add("graph");
  }
  return boost;
}
