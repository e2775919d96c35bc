/** A candidate as a reranker sees it: enough to score, nothing to mutate. */
export interface RerankCandidate {
  id: number;
  content: string;
  score: number;
  contentHash: string;
}

/** Returns the candidates it was given, rescored and in its preferred order. */
export type RerankProvider = (query: string, candidates: RerankCandidate[]) => Promise<RerankCandidate[]>;

export const passThroughReranker: RerankProvider = async (_query, candidates) => candidates;

export interface RerankOutcome {
  candidates: RerankCandidate[];
  /** Why the original order was kept, when it was. */
  fallback?: "timeout" | "error" | "invalid";
}

/**
 * Reranks the head (`topN`) and keeps the tail as it was. A provider that throws, answers after
 * `timeoutMs`, or returns a different set of ids leaves the original order: reranking may only
 * improve a result, never lose one.
 */
export async function rerankWithTimeout(options: {
  query: string;
  candidates: RerankCandidate[];
  provider: RerankProvider;
  topN: number;
  timeoutMs: number;
}): Promise<RerankOutcome> {
  const head = options.candidates.slice(0, options.topN);
  const tail = options.candidates.slice(options.topN);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), options.timeoutMs);
  });
  try {
    const answer = await Promise.race([
      options.provider(
        options.query,
        head.map((c) => ({ ...c })),
      ),
      timeout,
    ]);
    if (answer === "timeout") return { candidates: options.candidates, fallback: "timeout" };
    const before = new Set(head.map((c) => c.id));
    if (answer.length !== head.length || !answer.every((c) => before.has(c.id))) {
      return { candidates: options.candidates, fallback: "invalid" };
    }
    return { candidates: [...answer, ...tail] };
  } catch {
    return { candidates: options.candidates, fallback: "error" };
  } finally {
    clearTimeout(timer);
  }
}
