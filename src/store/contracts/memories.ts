import type { MemoryRecord } from "../types/memoryRecord.js";

/** A row as stored; the memory service builds it from a RememberInput after normalization. */
export interface NewMemoryRow {
  content: string;
  normalizedContent: string;
  contentHash: string;
  type: string;
  confidence: number;
  importance: number;
  scope: string;
  project: string | null;
  sessionId: string | null;
  itemFrom: number | null;
  itemTo: number | null;
  /** When the remembered thing was said (epoch ms). */
  occurredAt: number | null;
  /** Calendar tokens of the times the content mentions (src/text/temporalTerms.ts), or null. */
  timeTerms: string | null;
  /** Category words of the content's nouns (src/text/lexicon/concepts.ts), or null. */
  conceptTerms: string | null;
  /** Words the memory should be found by that its text lacks (written at extraction), space-separated, or null. */
  searchTerms: string | null;
  ref: string | null;
  who: string | null;
  why: string | null;
  embeddingModel: string | null;
  now: number;
}

export interface NeighborRow {
  id: number;
  sessionId: string;
  itemFrom: number;
  scope: string;
}

/** What recall needs to score and filter a memory, without its text. */
export interface MemoryRef {
  id: number;
  contentHash: string;
  scope: string;
  type: string;
  who: string | null;
  sessionId: string | null;
  itemFrom: number | null;
}

export type MemoryFilter = { scopes: string[] | "all"; types?: string[] };

/**
 * The author (`who`) the fact pipeline writes on the memories it extracts from sessions. Everything
 * else was stored through remember (by the user, or an agent on the user's behalf) or a person's edit.
 * Migrations 010 and 012 spell it out in SQL.
 */
export const FACT_PIPELINE_WHO = "fact-pipeline";

/**
 * The type of the memories a document's text is cut into (`cairn ingest`, migration 020): found by
 * recall like any memory, never listed as something the user remembered at a session's start.
 */
export const DOCUMENT_CHUNK_TYPE = "document_chunk";

/**
 * How the `who` of a memory an agent stored starts (`agent:mcp`, `agent:http`): written during a
 * session, not confirmed by the user. Injection never presents such a memory as the user's statement,
 * and holds back a global one until the user confirms it (`cairn memory confirm`).
 */
export const AGENT_WHO_PREFIX = "agent:";

/** The memories table group: live rows, tombstones (never a hard delete here), usage counters. */
export interface MemoryRepo {
  /** A live row's id, or undefined when a live row with the same scope and hash exists. */
  insert(row: NewMemoryRow): number | undefined;
  findLiveByHash(scope: string, contentHash: string): number | undefined;
  /** The highest memory id so far (0 when there is none): a mark to ask later what was written since. */
  maxId(): number;
  /**
   * Memories (live and tombstoned) the fact pipeline stored in `scope` from a session with no known
   * project, ids in (`afterId`, `upTo`], oldest first.
   */
  projectlessFacts(scope: string, afterId: number, upTo: number, limit: number): MemoryRecord[];
  /**
   * Live memories the fact pipeline stored from a session whose content matches one of the SQL LIKE
   * `patterns`, ids in (`afterId`, `upTo`], oldest first.
   */
  pipelineFactsLike(patterns: string[], afterId: number, upTo: number, limit: number): MemoryRecord[];
  /** Records who stands behind a live memory (the user confirming what an agent stored); false when not live. */
  setAuthor(id: number, who: string, now: number): boolean;
  /** Moves a memory to another scope (and provenance project); false when a live twin is there already. */
  moveScope(id: number, scope: string, project: string | null, now: number): boolean;
  /** Live memories of a scope written after `afterId`, oldest first, at most `limit`. */
  liveAfter(scope: string, afterId: number, limit: number): Array<{ id: number; content: string }>;
  /** Tombstones a live memory as replaced by `byId`; false when it was not live. */
  supersede(id: number, byId: number, now: number): boolean;
  /** Brings a tombstoned memory back (clears supersession); false when a live twin holds its hash. */
  restore(id: number, now: number): boolean;
  /** Names the successor of a memory already tombstoned in this write (a replacement that freed its slot first). */
  nameSuccessor(id: number, byId: number, now: number): boolean;
  /** Memories replaced by any of `ids`. */
  supersededBy(ids: number[]): MemoryRecord[];
  /** Tombstones (superseded or forgotten) in the scopes without a live twin in their scope, newest first. */
  staleIn(scopes: string[] | "all", limit: number): MemoryRecord[];
  /** Per scope, a mark that changes whenever one of its memories is superseded, forgotten or restored. */
  tombstoneMarks(): Record<string, string>;
  get(id: number): MemoryRecord | undefined;
  /**
   * Live memories of a scope not written by the fact pipeline (`FACT_PIPELINE_WHO`), newest first (when
   * said, else when stored), at most `limit`: what a session starting there is told the user remembered.
   * `withoutAgents` leaves out what an agent stored and the user did not confirm (`AGENT_WHO_PREFIX`).
   */
  newestRemembered(scope: string, limit: number, options?: { withoutAgents?: boolean }): MemoryRecord[];
  getLive(ids: number[], filter: MemoryFilter): MemoryRecord[];
  /**
   * Live memories of the scope indexed under any of the subject keys (migration 019), newest first, at
   * most `limit`: the memories that may state the same fact.
   */
  sharingSubject(scope: string, keys: readonly string[], limit: number): number[];
  /**
   * For each subject key, the live memories of the scope indexed under it, newest first, at most `limit`
   * each: what `sharingSubject` reads, for the keys of a whole batch of memories in one query.
   */
  liveBySubject(scope: string, keys: readonly string[], limit: number): Map<string, number[]>;
  getRefs(ids: number[], filter: MemoryFilter): MemoryRef[];
  timeMentions(ids: number[]): Map<number, { occurredAt: number | null; timeTerms: string | null }>;
  contents(ids: number[]): Map<number, string>;
  idsWithoutHintsAfter(afterId: number, limit: number): number[];
  withoutConcepts(afterId: number, upTo: number, limit: number): { id: number; content: string }[];
  setConceptTerms(id: number, terms: string): void;
  /**
   * Adds the words of `terms` a memory's search terms lack (case-insensitively), while the whole stays
   * within `maxChars`: a duplicate remembered with search terms of its own. False when nothing was added.
   */
  addSearchTerms(id: number, terms: string, maxChars: number): boolean;
  /** A memory's stored search terms (space-separated words), or null: what an export carries. */
  searchTermsOf(id: number): string | null;
  tombstone(id: number, now: number): boolean;
  setEmbeddingModel(id: number, model: string): void;
  bumpUsage(ids: number[], now: number): void;
  sessionNeighbors(anchors: { sessionId: string; item: number; scope: string }[], window: number): NeighborRow[];
  authorsNamed(words: string[], scopes: string[] | "all"): string[];
  counts(): { live: number; deleted: number; byScope: Record<string, number> };
}
