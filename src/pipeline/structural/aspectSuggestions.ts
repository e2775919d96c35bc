/** The entity types the classifier may infer for an entity the inline linker could not type. */
export const ENTITY_TYPES = ["person", "project", "system", "tool", "concept", "skill", "task", "unknown"] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];

/** Types that mean "not determined yet": the classifier is asked to infer a better one. */
export function needsEntityType(entityType: string): boolean {
  return entityType === "extracted" || entityType === "unknown";
}

/**
 * A few aspect names per entity type, offered to the model so that facts about the same part of a
 * thing land under the same name across sessions (a vocabulary, not a closed list). Chosen for what
 * coding sessions say about each kind of thing.
 */
const ASPECT_SUGGESTIONS: Record<string, readonly string[]> = {
  person: ["role", "preferences", "responsibilities", "expertise"],
  project: ["architecture", "dependencies", "build", "testing", "deployment", "conventions", "configuration"],
  system: ["configuration", "deployment", "interfaces", "limits", "failures"],
  tool: ["usage", "configuration", "version", "limitations"],
  file: ["purpose", "contents", "conventions"],
  concept: ["definition", "rules", "examples"],
  skill: ["practice", "pitfalls"],
  task: ["goal", "status", "steps", "blockers"],
};
const GENERAL = ["usage", "configuration", "behaviour", "conventions"];

export function aspectSuggestions(entityType: string): readonly string[] {
  return ASPECT_SUGGESTIONS[entityType] ?? GENERAL;
}
