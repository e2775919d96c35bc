import { defaultRecallConfig } from "../../src/config/recallConfig.js";
import type { RecallRequest } from "../../src/memory/types.js";
import type { Candidate } from "../../src/recall/candidate.js";
import { analyzeQuery } from "../../src/recall/queryAnalyzer.js";
import type { RecallDeps } from "../../src/recall/recallDeps.js";
import type { RecallContext } from "../../src/recall/stage.js";
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

/**
 * A recall context for one stage: the query analyzed, default config, and only the repository
 * methods the test passes in `deps` (others throw when called). `admit` makes bare candidates.
 */
export function recallContext(
  options: { query?: string; k?: number; authorWords?: string[]; deps?: Record<string, unknown> } = {},
): RecallContext & { warnings: string[] } {
  const request: RecallRequest = { query: options.query ?? "anything", scopes: ["s"] };
  const deps = { config: defaultRecallConfig(), clock: () => 0, ...options.deps } as unknown as RecallDeps;
  return {
    deps,
    request,
    query: analyzeQuery(request.query),
    k: options.k ?? 10,
    queryVector: undefined,
    authorWords: options.authorWords ?? [],
    warnings: [],
    admit: (ids) => ids.map((id) => candidate(id, 0)),
  };
}
