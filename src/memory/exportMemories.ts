import { guardDeep } from "../redact/guard.js";
import { EXPORT_FORMAT, EXPORT_VERSION, type ExportedMemory } from "../requests/memoryTransfer.js";
import { exportedMemoryIds } from "../store/exportedMemoryIds.js";
import type { Storage } from "../store/storage.js";
import type { MemoryRecord } from "../store/types/memoryRecord.js";
import type { MemoryType } from "./types.js";

/** The first line of an export file: what it is, its version, and what was asked for. */
export interface ExportHeader {
  format: typeof EXPORT_FORMAT;
  version: typeof EXPORT_VERSION;
  exportedAt: string;
  scopes: string[] | "all";
  withGone: boolean;
  count: number;
}

export interface MemoryExport {
  header: ExportHeader;
  memories: ExportedMemory[];
}

/**
 * The memories of `scopes` as export lines, oldest first: each with its provenance, author, dates,
 * state, successor and history. Every line passes through the one guard on the way out, so a secret
 * or a `<private>` block stored before a redaction rule existed never leaves in a file.
 */
export function exportMemories(
  storage: Storage,
  request: { scopes: string[] | "all"; withGone: boolean; now: number },
): MemoryExport {
  const memories = exportedMemoryIds(storage.db, request.scopes, request.withGone).flatMap((id) => {
    const record = storage.memories.get(id);
    return record ? [guardDeep(exportedLine(record, storage))] : [];
  });
  return {
    header: {
      format: EXPORT_FORMAT,
      version: EXPORT_VERSION,
      exportedAt: new Date(request.now).toISOString(),
      scopes: request.scopes,
      withGone: request.withGone,
      count: memories.length,
    },
    memories,
  };
}

function exportedLine(record: MemoryRecord, storage: Storage): ExportedMemory {
  const state = record.deletedAt === null ? "live" : record.supersededBy !== null ? "superseded" : "forgotten";
  return {
    id: record.id,
    content: record.content,
    type: record.type as MemoryType,
    scope: record.scope,
    project: record.project,
    ref: record.ref,
    confidence: record.confidence,
    importance: record.importance,
    occurredAt: record.occurredAt,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    who: record.who,
    why: record.why,
    // The words it is found by that its text lacks: without them, what recall found here is lost there.
    searchTerms: storage.memories.searchTermsOf(record.id),
    provenance: { ...record.provenance },
    state,
    supersededBy: record.supersededBy,
    supersededAt: record.supersededAt,
    deletedAt: record.deletedAt,
    history: storage.history.list(record.id).map((event) => ({
      event: event.event,
      oldContent: event.oldContent,
      newContent: event.newContent,
      who: event.who,
      reason: event.reason,
      metadata: event.metadata,
      at: event.createdAt,
    })),
  };
}
