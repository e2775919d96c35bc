import type { RecallConfig } from "../config/recallConfig.js";
import type { RecallStage } from "./stage.js";
import { authorStage } from "./stages/authorStage.js";
import { contextStage } from "./stages/contextStage.js";
import { continuityStage } from "./stages/continuityStage.js";
import { dampeningStage } from "./stages/dampeningStage.js";
import { graphStage } from "./stages/graphStage.js";
import { headStage } from "./stages/headStage.js";
import { listLengthStage } from "./stages/listLengthStage.js";
import { minScoreStage } from "./stages/minScoreStage.js";
import { predictorStage } from "./stages/predictorStage.js";
import { recencyStage } from "./stages/recencyStage.js";
import { rerankStage } from "./stages/rerankStage.js";
import { timeAnswerStage } from "./stages/timeAnswerStage.js";

/**
 * The ranking after fusion, in order; a stage switched off in the config is left out. The order
 * carries these constraints:
 * - time answer before context: a memory's own evidence is weighed before neighbours lend it score
 *   (the neighbours context admits get it through `onAdmit`);
 * - author after context: a neighbour lends the score its words earned, whoever said it (placed
 *   before context it measured worse: docs/experiments/locomo-recall.md);
 * - min score before the graph boost: the boost cannot lift a memory its own evidence rejected;
 * - head before the list prior, rerank and dampening: they read text, which only the head loads;
 * - dampening after them: it sorts the order by evidence;
 * - continuity and the predictor after dampening: they adjust the order evidence made, from how
 *   sessions used the memories (the predictor is off unless asked for; it keeps the tail's order);
 * - recency last: it only hands places between memories on the same subject, so it reads the
 *   final places (a later score change would undo it).
 */
export function recallStages(config: RecallConfig): RecallStage[] {
  const { reranker } = config;
  return [
    ...(config.timeAnswer.penalty < 1 ? [timeAnswerStage(config.timeAnswer)] : []),
    ...(config.context.enabled ? [contextStage(config.context)] : []),
    ...(config.author.enabled ? [authorStage(config.author)] : []),
    minScoreStage(config.minScore),
    ...(config.graph.enabled ? [graphStage(config.graph)] : []),
    headStage({ minimum: reranker.enabled ? reranker.topN : 0 }),
    ...(config.listLength.exponent > 0 ? [listLengthStage(config.listLength)] : []),
    ...(reranker.enabled && reranker.kind !== "none" ? [rerankStage(reranker)] : []),
    dampeningStage(config.dampening),
    ...(config.continuity.enabled ? [continuityStage(config.continuity)] : []),
    ...(config.predictor.enabled ? [predictorStage(config.predictor)] : []),
    ...(config.recency.enabled ? [recencyStage(config.recency)] : []),
  ];
}
