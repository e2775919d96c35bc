import type { Database } from "better-sqlite3";
import type { GraphRepo } from "../../store/contracts/graph.js";
import { rethrowStoreFault } from "../../store/storeFault.js";
import { withWriteTx } from "../../store/tx.js";
import { errorMessage } from "../../util/errors.js";
import type { EntityTriple } from "./types.js";

/**
 * Entity triples into the graph, in a transaction of their own (a savepoint inside the caller's) after
 * the facts are stored: entities gain mentions, relations gain mentions with a running-average
 * confidence, and both ends are linked to the memories written from the same input. A failure is
 * reported, never thrown: the facts stay.
 */
export function persistGraph(input: {
  db: Database;
  graph: GraphRepo;
  triples: EntityTriple[];
  memoryIds: number[];
  now: number;
}): { entities: number; relations: number; error?: string } {
  const valid = input.triples.filter(
    (t) => t.source.trim() !== "" && t.target.trim() !== "" && t.relationship.trim() !== "",
  );
  try {
    return withWriteTx(input.db, () => {
      const entities = new Set<number>();
      for (const t of valid) {
        const source = input.graph.upsertEntity(t.source, "extracted", input.now);
        const target = input.graph.upsertEntity(t.target, "extracted", input.now);
        input.graph.upsertRelation(source, target, t.relationship, t.confidence, input.now);
        for (const memoryId of input.memoryIds) {
          input.graph.addMention(memoryId, source, t.source, t.confidence, "attribute");
          input.graph.addMention(memoryId, target, t.target, t.confidence, "attribute");
        }
        entities.add(source).add(target);
      }
      return { entities: entities.size, relations: valid.length };
    });
  } catch (error) {
    rethrowStoreFault(error);
    return { entities: 0, relations: 0, error: errorMessage(error) };
  }
}
