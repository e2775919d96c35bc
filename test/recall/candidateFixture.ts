import type { Candidate } from "../../src/recall/candidate.js";
import type { MemoryRef } from "../../src/store/repositories/memoryRepository.js";

/** A recall candidate for stage tests: empty content, no leg scores, unless the fields say otherwise. */
export function candidate(
  id: number,
  score: number,
  fields: Omit<Partial<Candidate>, "ref"> & { ref?: Partial<MemoryRef> } = {},
): Candidate {
  const { ref, ...rest } = fields;
  return {
    id,
    ref: { id, contentHash: `h${id}`, scope: "s", type: "fact", who: null, sessionId: null, itemFrom: null, ...ref },
    content: "",
    keyword: 0,
    vector: 0,
    hint: 0,
    score,
    sources: new Set(),
    ...rest,
  };
}
