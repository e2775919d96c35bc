/** The memory records the store returns. Imports nothing: every layer above may depend on it. */

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
