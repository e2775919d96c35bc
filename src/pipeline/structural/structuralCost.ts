import type { AspectRepo } from "../../store/contracts/aspects.js";
import { planStructuralCalls, type StructuralPlan } from "./groupForCalls.js";
import type { StructuralConfig } from "./structuralDeps.js";

/** Entities looked at for the estimate; a store with more waiting is estimated on these. */
const COST_SCAN = 100_000;

/** What the structural step would spend on the facts waiting now, or why it would spend nothing. */
export interface StructuralCost extends StructuralPlan {
  /** The model that would classify ("name (model)"); absent when the step would not call one. */
  model?: string;
  /** Why no call would be made (offline, disabled, frozen). */
  skipped?: string;
}

/**
 * The model calls structural classification would make for the entity mentions waiting now, packed
 * as the pass packs them (`cairn extract --dry-run` prints it, so the cost of classification is
 * known before a model is paid). The facts a run is about to extract are not in the store yet: their
 * entities add one call per 20.
 */
export function structuralCost(input: {
  aspects: Pick<AspectRepo, "entitiesAwaiting">;
  config: StructuralConfig;
  frozen: boolean;
  llm: { name: string; model: string } | null;
}): StructuralCost {
  const plan = planStructuralCalls(
    input.aspects.entitiesAwaiting(COST_SCAN).map((entity) => entity.waiting),
    input.config.classifyBatchSize,
  );
  const skipped = !input.config.enabled
    ? "pipeline.structural.enabled is false"
    : input.frozen
      ? "pipeline.mutationsFrozen is true"
      : input.llm === null
        ? "no model configured"
        : undefined;
  if (skipped !== undefined) return { ...plan, calls: 0, passes: 0, skipped };
  return { ...plan, model: `${input.llm!.name} (${input.llm!.model})` };
}
