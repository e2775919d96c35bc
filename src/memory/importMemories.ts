import { guardText } from "../redact/guard.js";
import type { ExportedMemory } from "../requests/memoryTransfer.js";
import { contentHashesIn } from "../store/exportedMemoryIds.js";
import { withWriteTx } from "../store/tx.js";
import { isAgentWritten } from "./memoryAuthor.js";
import type { MemoryStore } from "./memoryStore.js";
import { normalizeContent } from "./normalizeContent.js";
import { cleanSearchTerms, SEARCH_TERMS_CHARS } from "./searchTerms.js";
import type { RememberInput } from "./types.js";

export interface ImportReport {
  /** Memories stored now (live or, from an `--all` export, as the tombstones they were). */
  created: number;
  /** Memories the store already held (same scope and text, in any state): importing a file again adds nothing. */
  known: number;
  /** Lines with nothing left to store once guarded (a memory that was all secret or `<private>`). */
  skipped: number;
  /** Replacement links restored between imported memories. */
  linked: number;
  /** The new ids of the memories created: the caller revises them as it does any remembered memory (tombstones are passed over). */
  createdIds: number[];
  warnings: string[];
}

/**
 * Stores the memories of an export file through the remember write path (prepared, guarded,
 * embedded, deduplicated and queued for revision like every remembered memory), all in one write
 * transaction: a failure stores none of them. Each keeps its type, scope, author, provenance and when
 * it was said; a forgotten or replaced one is stored as the tombstone it was, the links between
 * imported memories (what replaced what, and when) restored, and its history copied with its dates.
 *
 * `by.who`: an agent's door (MCP, HTTP) imports. A file is whatever the agent hands over, so a line
 * the file calls the user's statement is stored as that agent's note (the file's author is kept in the
 * history): an agent cannot make the user say something by importing it (memory/memoryAuthor.ts).
 */
export async function importMemories(
  store: MemoryStore,
  lines: ExportedMemory[],
  file: string,
  by: { who?: string } = {},
): Promise<ImportReport> {
  const authorOf = (line: ExportedMemory) => (by.who === undefined || isAgentWritten(line.who) ? line.who : by.who);
  const { storage } = store;
  // What this store holds already, in any state, is matched by scope and the text's hash: the ids of the
  // exporting store mean nothing here.
  const known = new Map<string, Set<string>>();
  const hashesOf = (scope: string) => {
    const hashes = known.get(scope) ?? contentHashesIn(storage.db, scope);
    known.set(scope, hashes);
    return hashes;
  };
  const fresh = lines.filter((line) => !hashesOf(guardText(line.scope)).has(hashOf(line)));
  const staged = await store.stage(fresh.map((line) => rememberInputOf(line, authorOf(line))));
  const report: ImportReport = {
    created: 0,
    known: lines.length - fresh.length,
    skipped: 0,
    linked: 0,
    createdIds: [],
    warnings: [],
  };
  withWriteTx(storage.db, () => {
    const now = staged.now;
    const ids = new Map<number, number>();
    // In file order (oldest first), each tombstone laid down as it is stored: a later line restating a
    // replaced memory's text is then a memory of its own, as it was in the exporting store.
    fresh.forEach((line, index) => {
      const outcome = staged.write(index);
      for (const warning of outcome.warnings ?? []) report.warnings.push(warning);
      if (outcome.status === "skipped") report.skipped++;
      if (outcome.status === "deduped") report.known++;
      if (outcome.status !== "created" || outcome.id === undefined) return;
      report.created++;
      ids.set(line.id, outcome.id);
      report.createdIds.push(outcome.id);
      // Its search terms word by word, each checked as a remembered term is (guarded, no bare secret).
      const terms = (line.searchTerms ?? "").split(/\s+/).flatMap((word) => cleanSearchTerms([word]));
      if (terms.length > 0) storage.memories.addSearchTerms(outcome.id, terms.join(" "), SEARCH_TERMS_CHARS);
      if (line.state === "live") return;
      storage.memories.tombstone(outcome.id, line.deletedAt ?? now);
      storage.vectors.remove(outcome.id);
    });
    for (const line of fresh) {
      const id = ids.get(line.id);
      if (id === undefined) continue;
      const successor = line.supersededBy === null ? undefined : ids.get(line.supersededBy);
      if (successor !== undefined && storage.memories.nameSuccessor(id, successor, line.supersededAt ?? now))
        report.linked++;
      for (const event of line.history)
        storage.history.add({
          memoryId: id,
          event: event.event,
          oldContent: event.oldContent,
          newContent: event.newContent,
          who: event.who,
          reason: event.reason,
          metadata: remapped(event.metadata, ids),
          now: event.at,
        });
      storage.history.add({
        memoryId: id,
        event: "imported",
        reason: `imported from ${file}`,
        metadata: {
          exportedId: line.id,
          createdAt: line.createdAt,
          ...(authorOf(line) === line.who ? {} : { exportedWho: line.who }),
        },
        now,
      });
    }
  });
  return report;
}

function hashOf(line: ExportedMemory): string {
  return normalizeContent(guardText(line.content)).contentHash;
}

/** The remember input of a line: what it says, where, who said it, when, and where it came from. */
function rememberInputOf(line: ExportedMemory, who: string | null): RememberInput {
  return {
    content: line.content,
    type: line.type,
    scope: line.scope,
    confidence: line.confidence,
    importance: line.importance,
    provenance: line.provenance,
    // When it was said decides which of two memories on a subject is newer: kept, or the creation date.
    occurredAt: line.occurredAt ?? line.createdAt,
    ...(line.project === null ? {} : { project: line.project }),
    ...(line.ref === null ? {} : { ref: line.ref }),
    ...(who === null ? {} : { who }),
    ...(line.why === null ? {} : { why: line.why }),
  };
}

/** A history event's links to other memories (`supersededBy`) named by their new ids. */
function remapped(
  metadata: Record<string, unknown> | null,
  ids: Map<number, number>,
): Record<string, unknown> | undefined {
  if (metadata === null) return undefined;
  const by = metadata.supersededBy;
  if (typeof by !== "number") return metadata;
  const mapped = ids.get(by);
  return mapped === undefined ? { ...metadata, supersededBy: null } : { ...metadata, supersededBy: mapped };
}

/** What an import did, as the lines a person or an agent reads (the CLI and the MCP tool print them). */
export function importSummary(report: ImportReport): string[] {
  const links = report.linked > 0 ? `, ${report.linked} replacement link(s) restored` : "";
  const skipped = report.skipped > 0 ? `, ${report.skipped} skipped (nothing left once secrets were removed)` : "";
  return [
    `${report.created} imported, ${report.known} already here${skipped}${links}`,
    ...[...new Set(report.warnings)].map((warning) => `warning: ${warning}`),
  ];
}
