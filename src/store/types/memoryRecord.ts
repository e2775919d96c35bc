/** The memory records the store returns, and their order in time. Imports nothing: every layer above may depend on it. */

export interface Provenance {
  sessionId?: string;
  /** Positions within the session (`items.seq`), not store-wide item ids. */
  itemFrom?: number;
  itemTo?: number;
}

export interface MemoryRecord {
  id: number;
  content: string;
  normalizedContent: string;
  contentHash: string;
  type: string;
  confidence: number;
  importance: number;
  scope: string;
  project: string | null;
  ref: string | null;
  provenance: Provenance;
  /** When the remembered thing was said (epoch ms), when the caller gave it. */
  occurredAt: number | null;
  who: string | null;
  why: string | null;
  embeddingModel: string | null;
  usageCount: number;
  createdAt: number;
  updatedAt: number;
  deletedAt: number | null;
  /** The memory that replaced this one (a superseded memory is also a tombstone), and when. */
  supersededBy: number | null;
  supersededAt: number | null;
}

export interface HistoryEvent {
  id: number;
  memoryId: number | null;
  event: string;
  oldContent: string | null;
  newContent: string | null;
  who: string | null;
  reason: string | null;
  metadata: Record<string, unknown> | null;
  createdAt: number;
}

export interface EvidenceItem {
  seq: number;
  role: string;
  text: string;
}

/** A memory as "which was said later" sees it. */
export interface Dated {
  id: number;
  occurredAt: number | null;
  createdAt: number;
}

/**
 * Whether `a` is newer than `b`: the later occurredAt (else creation time), the higher id on a tie.
 * Sessions' facts are stored in the order extraction finishes, so the id alone does not say which
 * statement came later. Here, beside the record, so the store and every layer order memories alike.
 */
export function isNewer(a: Dated, b: Dated): boolean {
  const at = a.occurredAt ?? a.createdAt;
  const bt = b.occurredAt ?? b.createdAt;
  return at !== bt ? at > bt : a.id > b.id;
}
