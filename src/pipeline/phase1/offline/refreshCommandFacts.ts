import type { MemoryStore } from "../../../memory/memoryStore.js";
import { normalizeContent } from "../../../memory/normalizeContent.js";
import { guardText } from "../../../redact/guard.js";
import type { Lease } from "../../../store/queue/types.js";
import type { MemoryRecord } from "../../../store/types/memoryRecord.js";
import { COMMAND_FACT_PATTERNS, commandFactsOf } from "./offlineExtractor.js";

/** Memories read per page. */
const PAGE = 500;
/** Who retires them, in the memory's history. */
const WHO = "maintenance";

/**
 * The maintenance job of migration 014. Earlier versions of the offline extractor stored command facts
 * the transcript does not support: a command piped into grep counted as one that worked when grep
 * found errors, Codex commands whose result it never read counted as worked, a grep that found
 * nothing was a failure, a release command was a tip. Each command fact the offline extractor stored
 * ("Command that worked: ...", "... failed with ...; ... later succeeded.") is read again from its
 * session's items with the current rules, and forgotten, with the reason in its history, when the
 * session no longer shows it. Sessions a model extracted are left alone, as are the sessions whose
 * items are gone (nothing to read them again from). Resumable: a retired memory no longer matches.
 */
export function refreshCommandFacts(store: MemoryStore, lease: Lease): void {
  const { upTo } = lease.payload as { upTo: number };
  const { storage } = store;
  for (let after = 0; ; ) {
    const rows = storage.memories.pipelineFactsLike(COMMAND_FACT_PATTERNS, after, upTo, PAGE);
    if (rows.length === 0) return;
    for (const [sessionId, facts] of bySession(rows)) {
      const current = currentFacts(store, sessionId);
      if (current === undefined) continue;
      for (const fact of facts) {
        if (current.has(fact.contentHash)) continue;
        store.forget(fact.id, {
          who: WHO,
          reason: "the session no longer shows this command's outcome (re-read with the offline extractor's rules)",
        });
      }
    }
    after = rows[rows.length - 1]!.id;
    storage.jobs.heartbeat(lease);
  }
}

function bySession(rows: readonly MemoryRecord[]): Map<string, MemoryRecord[]> {
  const groups = new Map<string, MemoryRecord[]>();
  for (const row of rows) {
    const session = row.provenance.sessionId;
    if (session === undefined) continue;
    groups.set(session, [...(groups.get(session) ?? []), row]);
  }
  return groups;
}

/** The content hashes of the command facts the session shows now; undefined when it cannot be read again. */
function currentFacts(store: MemoryStore, sessionId: string): Set<string> | undefined {
  const { storage } = store;
  const session = storage.sessions.get(sessionId);
  if (storage.stage1.get(sessionId)?.generator !== "offline" || !session) return undefined;
  const items = storage.items.list(sessionId);
  if (items.length === 0) return undefined;
  return new Set(commandFactsOf(session, items).map((text) => normalizeContent(guardText(text)).contentHash));
}
