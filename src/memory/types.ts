/** The memory service's public shapes. Imports only the store's record types and the request vocabulary: CLI, HTTP and MCP wiring depend on this file. */

import type { DOCUMENT_CHUNK_TYPE } from "../store/contracts/memories.js";
import type { Doubt } from "../store/contracts/reviews.js";
import type { EvidenceItem, HistoryEvent, MemoryRecord, Provenance } from "../store/types/memoryRecord.js";

export type { EvidenceItem, HistoryEvent, MemoryRecord, Provenance };

import type { MemoryType } from "../requests/memoryTypes.js";

export { type MemoryType, memoryTypes } from "../requests/memoryTypes.js";

export interface RememberInput {
  content: string;
  /** A label: `global`, a project key, or anything else. Defaults to `global`. */
  scope?: string;
  /** The caller's provenance label, returned as is by recall. */
  ref?: string;
  /** A caller's type, or a document's chunk (written by ingest only, never named on remember). */
  type?: MemoryType | typeof DOCUMENT_CHUNK_TYPE;
  confidence?: number;
  importance?: number;
  provenance?: Provenance;
  /**
   * When the remembered thing was said or happened: epoch ms or an ISO date / date-time. Relative
   * times in the content ("yesterday", "last Friday", "next month") are resolved against it for
   * search; the content itself is stored as given.
   */
  occurredAt?: number | string;
  project?: string;
  /**
   * Words the memory should be found by that its text does not contain (aliases, abbreviations, the
   * general category), as a model wrote them at extraction. Redacted like the text, capped in count and
   * length, indexed in their own low-weight column.
   */
  searchTerms?: readonly string[];
  who?: string;
  why?: string;
  /**
   * The raw conversation the memory came from, kept whole beside it (seed 004's lossless transcripts):
   * stored once per `sessionKey` (the first wins), redacted like every text. Needs `sessionKey`.
   */
  transcript?: string;
  /** The session a `transcript` belongs to, chosen by the caller (a connector's session id). */
  sessionKey?: string;
}

export type RememberStatus = "created" | "deduped" | "skipped";

export interface RememberOutcome {
  status: RememberStatus;
  /** The new row, or the existing live row for a duplicate; undefined when skipped. */
  id?: number;
  contentHash: string;
  reason?: string;
  /** What went wrong but lost nothing (the memory is stored without its vector until the tracker adds it). */
  warnings?: string[];
  /** Older memories of the scope this one replaced (same-subject supersession), and why. */
  superseded?: { id: number; content: string; reason: string }[];
  /** The newer memory that replaced this one at once: it arrived after a newer statement on its subject. */
  supersededBy?: { id: number; reason: string };
  /** Review flags this memory raised with another memory of its scope: a person decides (`with` is the other). */
  flagged?: { flag: number; with: number; reason: string }[];
}

export interface RecallRequest {
  query: string;
  k?: number;
  /** Scope labels to search, or "all". */
  scopes: string[] | "all";
  /** Adds the source transcript excerpt (items of the provenance range) to each result. */
  expand?: boolean;
  /** Restricts to these memory types. */
  types?: string[];
  /** When false, hits do not bump usage counters (the decision stage reads without counting). */
  countUsage?: boolean;
  /** Adds to each result the memories it replaced (transitively), outside the ranking and k. */
  includeSuperseded?: boolean;
}

/** A memory a result replaced: a tombstone kept for the record, shown with `includeSuperseded`. */
export interface SupersededMemory {
  id: number;
  content: string;
  type: string;
  /** Epoch ms. */
  supersededAt: number;
  /** The memory that replaced this one: the result itself, or a memory of the chain in between. */
  supersededBy: number;
}

export interface RecallResult {
  id: number;
  content: string;
  /** Calibrated relevance in [0, 1]: comparable across queries, not just a rank. */
  score: number;
  type: string;
  scope: string;
  ref: string | null;
  provenance: Provenance;
  /** Which legs found it: "keyword", "vector", "hint", "graph" or "context"; "recency" when it took the place of an older memory on the same subject. */
  sources: string[];
  evidence?: EvidenceItem[];
  /** With `expand`: the raw conversation pushed with `remember` for this memory's session (seed 004's lossless transcripts). */
  transcript?: ExpandedTranscript;
  /** With `includeSuperseded`: what this memory replaced, newest first (never ranked, never counted in k). */
  superseded?: SupersededMemory[];
  /** An open review flag says a newer live memory may replace this one: which, and the flag a person decides. */
  doubted?: Doubt;
}

export type { Doubt } from "../store/contracts/reviews.js";

/** A session's stored transcript, joined into a recall result by `expand`. */
export interface ExpandedTranscript {
  sessionKey: string;
  content: string;
  /** When it was stored (epoch ms). */
  createdAt: number;
}

export interface RecallTimings {
  totalMs: number;
  stages: Record<string, number>;
}

export interface RecallResponse {
  results: RecallResult[];
  timings: RecallTimings;
  /** Non-fatal degradations (a timed-out graph boost, a failed reranker, no vectors). */
  warnings: string[];
  /** With no results: the scopes searched, how many memories they hold, and why nothing came. */
  reason?: EmptyRecallReason;
}

/** Why a recall found nothing. */
export interface EmptyRecallReason {
  code: "no_memory" | "no_match";
  /** One line for a person: the scopes searched, their memories, and what to try. */
  message: string;
  /** The scopes searched (the project's key and `global` by default), or every scope. */
  scopes: string[] | "all";
  /** Live memories in each scope searched. */
  memories: Record<string, number>;
  /** For a project with no memory yet: why (as an empty inject says it). */
  project?: { code: string; message: string };
}
