import type { RecallConfig } from "../../config/recallConfig.js";
import { errorMessage } from "../../util/errors.js";
import { byScoreDesc } from "../candidate.js";
import type { PredictorCandidate } from "../predictor.js";
import type { RecallStage } from "../stage.js";

const DAY_MS = 86_400_000;

/**
 * The predictor (seed 004): the head of the ranking goes to the scorer with its features; its scores
 * are fused with recall's, `(1 - weight) * baseline + weight * predicted`. A scorer that is missing,
 * slow (over `timeoutMs`), failing or answering the wrong shape leaves the baseline order, with a
 * warning saying why.
 */
export function predictorStage(options: RecallConfig["predictor"]): RecallStage {
  return {
    name: "predictor",
    async apply(ctx, candidates) {
      const scorer = ctx.deps.predictor;
      if (!scorer) {
        ctx.warnings.push("recall.predictor is on but no scorer was given; baseline order kept");
        return candidates;
      }
      const head = candidates.slice(0, options.topN);
      if (head.length === 0) return candidates;
      const now = ctx.deps.clock();
      const relevance = ctx.deps.continuity?.relevanceOf(head.map((c) => c.id)) ?? new Map();
      const input: PredictorCandidate[] = head.map((c) => ({
        id: c.id,
        features: {
          baseline: c.score,
          keyword: c.keyword,
          vector: c.vector,
          ageDays: Math.max(0, (now - (ctx.deps.memories.get(c.id)?.createdAt ?? now)) / DAY_MS),
          continuity: relevance.get(c.id)?.mean ?? -1,
          continuitySessions: relevance.get(c.id)?.sessions ?? 0,
        },
      }));
      const controller = new AbortController();
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<"timeout">((resolve) => {
        timer = setTimeout(() => resolve("timeout"), options.timeoutMs);
      });
      try {
        const scores = await Promise.race([
          scorer.score({ query: ctx.request.query, candidates: input }, controller.signal),
          timedOut,
        ]);
        if (scores === "timeout") {
          controller.abort();
          ctx.warnings.push(`predictor ${scorer.name} took over ${options.timeoutMs} ms; baseline order kept`);
          return candidates;
        }
        if (!Array.isArray(scores) || scores.length !== head.length || !scores.every(Number.isFinite)) {
          ctx.warnings.push(
            `predictor ${scorer.name} answered ${Array.isArray(scores) ? scores.length : "no"} scores for ${head.length}; baseline order kept`,
          );
          return candidates;
        }
        head.forEach((c, i) => {
          const predicted = Math.min(1, Math.max(0, scores[i]!));
          c.score = (1 - options.weight) * c.score + options.weight * predicted;
        });
        return [...head.sort(byScoreDesc), ...candidates.slice(options.topN)];
      } catch (error) {
        ctx.warnings.push(`predictor ${scorer.name} failed (${errorMessage(error)}); baseline order kept`);
        return candidates;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
