/**
 * How the waiting facts of many entities are packed into model calls, shared by the pass and by the
 * cost it announces (`cairn extract --dry-run`), so the estimate counts the calls the pass makes.
 */

/** Entities per model call: the calls of a pass grow with sessions, not with the entities they name. */
export const ENTITIES_PER_CALL = 20;
/**
 * Facts per model call: one answer item is about 20 tokens, so 100 facts keep an answer well inside
 * the output limit of small local models, while entities with one to five facts (the usual case)
 * still fill a call with 20.
 */
export const FACTS_PER_CALL = 100;
/** Rounds one entity may take in one pass (a hub entity with thousands of facts shares the pass). */
export const MAX_ROUNDS_PER_PASS = 10;
/** Entities claimed per pass; the rest wait for the next cycle. */
export const ENTITIES_PER_PASS = 200;

/** Consecutive groups of at most ENTITIES_PER_CALL entities and FACTS_PER_CALL facts (an entity is never split). */
export function groupForCalls<T>(items: readonly T[], factsOf: (item: T) => number): T[][] {
  const groups: T[][] = [];
  let current: T[] = [];
  let facts = 0;
  for (const item of items) {
    const count = factsOf(item);
    if (current.length > 0 && (current.length >= ENTITIES_PER_CALL || facts + count > FACTS_PER_CALL)) {
      groups.push(current);
      current = [];
      facts = 0;
    }
    current.push(item);
    facts += count;
  }
  if (current.length > 0) groups.push(current);
  return groups;
}

/** What classifying the facts waiting now will cost, if every answer is usable. */
export interface StructuralPlan {
  entities: number;
  /** Entity mentions waiting (a memory naming three entities counts three times). */
  mentions: number;
  calls: number;
  /** Pipeline cycles the work spreads over (ENTITIES_PER_PASS and MAX_ROUNDS_PER_PASS per cycle). */
  passes: number;
}

/**
 * Counts the calls the structural passes would make for entities with these waiting mention counts:
 * each round asks for at most `batchSize` facts of every entity still waiting, packed by groupForCalls.
 */
export function planStructuralCalls(waiting: readonly number[], batchSize: number): StructuralPlan {
  const plan: StructuralPlan = { entities: 0, mentions: 0, calls: 0, passes: 0 };
  let left = waiting.filter((count) => count > 0);
  plan.entities = left.length;
  plan.mentions = left.reduce((sum, count) => sum + count, 0);
  while (left.length > 0) {
    plan.passes++;
    let claimed = left.slice(0, ENTITIES_PER_PASS);
    const later = left.slice(ENTITIES_PER_PASS);
    for (let round = 0; round < MAX_ROUNDS_PER_PASS && claimed.length > 0; round++) {
      plan.calls += groupForCalls(claimed, (count) => Math.min(batchSize, count)).length;
      claimed = claimed.map((count) => count - Math.min(batchSize, count)).filter((count) => count > 0);
    }
    left = [...later, ...claimed];
  }
  return plan;
}
