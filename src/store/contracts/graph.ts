/** Entities, relations and memory mentions. */
export interface GraphRepo {
  upsertEntity(rawName: string, entityType: string, now: number): number;
  upsertRelation(sourceId: number, targetId: number, relationType: string, confidence: number, now: number): void;
  /** False when the memory already mentions the entity. */
  addMention(memoryId: number, entityId: number, mentionText: string, confidence: number, kind: string): boolean;
  entitiesMatching(token: string, limit: number): number[];
  neighbors(entityIds: number[], limit: number): number[];
  /** The entities the memories mention. */
  entitiesOf(memoryIds: number[]): number[];
  memoriesMentioning(entityIds: number[], scopes: string[] | "all", limit: number): number[];
  entityDegrees(memoryIds: number[]): Map<number, number[]>;
  /**
   * The live memories that share an entity and an aspect with `memoryId` (the same subject, once the
   * structural classifier filed both), newest first. Empty until the memory is classified.
   */
  siblingsOf(memoryId: number): number[];
  counts(): { entities: number; relations: number; mentions: number };
}
