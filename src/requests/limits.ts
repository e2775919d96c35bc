/**
 * The fixed limits of cairn's requests, the same on every door (CLI, HTTP, MCP, library). The recall
 * ceiling on `k` is not here: it is the config's `recall.maxK`. docs/requests.md has the table.
 */
export const requestLimits = {
  /**
   * Characters of one memory. A memory is one self-contained statement; embedding models read at most
   * a few hundred tokens of it, and recall hands it whole to an agent's context.
   */
  contentChars: 10_000,
  /** Characters of a recall query: a query is at most as long as a memory. */
  queryChars: 10_000,
  /** Characters of the caller's provenance label on a memory. */
  refChars: 1_000,
  /**
   * Characters of the transcript given with remember: a long working session's conversation, kept whole
   * beside its memories. Half the default HTTP body cap (`server.maxBodyBytes`, 1 MiB), so the memories
   * sent with it still fit.
   */
  transcriptChars: 500_000,
  /** Search terms of one memory: enough for a few aliases and a category, few enough not to swamp its text. */
  searchTerms: 12,
  /** Characters of one search term: a word or a short name ("end-to-end test"); longer is a sentence. */
  searchTermChars: 40,
  /** Memories in one HTTP remember request (the body is also capped at `server.maxBodyBytes`). */
  rememberItems: 1_000,
} as const;
