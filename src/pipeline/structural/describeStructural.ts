import { STRUCTURAL_OFF, type StructuralReport } from "./classifyStructure.js";
import { ENTITIES_PER_CALL } from "./groupForCalls.js";
import type { StructuralCost } from "./structuralCost.js";

/** The run report's line for the structural step; undefined when it is off or had nothing to do. */
export function describeStructural(report: StructuralReport): string | undefined {
  if (report.outcome === "skipped") {
    if (report.reason === STRUCTURAL_OFF) return undefined;
    return `structural classification skipped: ${report.reason} (${factsWaiting(report.waiting)})`;
  }
  if (report.calls + report.failed + report.waiting + report.decayed === 0) return undefined;
  const parts = [
    `${report.classified} facts of ${report.entities} entities classified in ${report.calls} model calls`,
    `${report.aspectsCreated} new aspects`,
  ];
  if (report.typesInferred > 0) parts.push(`${report.typesInferred} entity types inferred`);
  if (report.leftOut > 0) parts.push(`${report.leftOut} left out of a batched answer and asked again alone`);
  if (report.failed > 0) parts.push(`${report.failed} failed`);
  if (report.decayed > 0) parts.push(`${report.decayed} stale aspects decayed`);
  parts.push(factsWaiting(report.waiting));
  return `structural: ${parts.join(", ")}`;
}

/**
 * "1 entity mention waiting", "12 entity mentions waiting": what waits is each memory's link to each
 * entity it names (a memory naming three tools waits three times), so "facts" would overstate it.
 */
export function factsWaiting(count: number): string {
  return `${count} entity ${count === 1 ? "mention" : "mentions"} waiting`;
}

/** The dry run's line on what structural classification will cost after the extraction. */
export function describeStructuralCost(cost: StructuralCost): string {
  const added = `the facts these sessions add cost one more call per ${ENTITIES_PER_CALL} entities they name`;
  if (cost.skipped !== undefined)
    return `structural classification: 0 model calls, ${cost.skipped} (${factsWaiting(cost.mentions)})`;
  const spread = cost.passes > 1 ? ` over ${cost.passes} cycles` : "";
  return (
    `structural classification with ${cost.model}: ${cost.calls} model calls${spread} for the ${cost.entities} ` +
    `entities waiting (${factsWaiting(cost.mentions)}, up to ${ENTITIES_PER_CALL} entities per call); ${added}`
  );
}
