/** The kinds of memory a caller may name on remember: part of every door's request vocabulary. */
export const memoryTypes = ["fact", "preference", "decision", "procedural", "semantic", "constraint", "note"] as const;
export type MemoryType = (typeof memoryTypes)[number];
