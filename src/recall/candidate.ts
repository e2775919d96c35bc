import type { MemoryRef } from "../store/repositories/memoryRepository.js";

/** One memory on its way through recall, with each leg's calibrated score kept for explanation. */
export interface Candidate {
  id: number;
  ref: MemoryRef;
  /** Loaded for the head of the ranking (dampening and reranking read it) and for a named author's memories (the author prior reads their grammar). */
  content?: string;
  keyword: number;
  vector: number;
  hint: number;
  score: number;
  sources: Set<string>;
}

export function byScoreDesc(a: Candidate, b: Candidate): number {
  return b.score - a.score || a.id - b.id;
}
