import type { MemoryRef } from "../store/repositories/memoryRepository.js";
import type { Candidate } from "./candidate.js";
import { capHintOnly, fuseScores, rescaleCosine } from "./fuse.js";
import type { KeywordLegResult } from "./keywordLeg.js";
import type { RecallDeps } from "./recallDeps.js";
import { exactCosines } from "./vectorLeg.js";

/**
 * Candidates for these rows, in their order: each gets its exact cosine with the query (computed
 * even when only the keyword leg found it, so no memory is scored by one leg because the other
 * leg's cut-off missed it), its keyword and hint scores, and the fused score.
 */
export function fuseCandidates(
  deps: RecallDeps,
  input: { refs: MemoryRef[]; legs: KeywordLegResult; queryVector: Float32Array | undefined },
): Candidate[] {
  const { refs, legs, queryVector } = input;
  const { config } = deps;
  const cosines = queryVector ? exactCosines(deps, queryVector, refs) : new Map<number, number>();
  return refs.map((ref) => {
    const c: Candidate = {
      id: ref.id,
      ref,
      keyword: legs.keyword.get(ref.id) ?? 0,
      vector: rescaleCosine(cosines.get(ref.id) ?? 0, config.vectorRange),
      hint: legs.hint.get(ref.id) ?? 0,
      score: 0,
      sources: new Set(),
    };
    if (c.keyword > 0) c.sources.add("keyword");
    if (c.vector > 0) c.sources.add("vector");
    if (c.hint > 0) c.sources.add("hint");
    const fused = fuseScores({ ...c, alpha: queryVector ? config.alpha : 0 });
    c.score = capHintOnly(fused, { ...c, cap: config.hints.hintOnlyCap });
    return c;
  });
}
