import type { SessionRecord } from "../../../collection/types.js";
import type { MemoryStore } from "../../../memory/memoryStore.js";
import { normalizeContent } from "../../../memory/normalizeContent.js";
import { type MemoryType, memoryTypes } from "../../../memory/types.js";
import { guardText } from "../../../redact/guard.js";
import type { Lease } from "../../../store/queue/types.js";
import type { MemoryRecord } from "../../../store/types/memoryRecord.js";
import type { SessionItems } from "../sessionItems.js";
import { storedItems } from "../storedItems.js";
import type { Stage1Output } from "../types.js";
import { sessionCommand } from "./commands.js";
import { COMMAND_FACT_PATTERNS, type CommandReading, commandReading, extractOffline } from "./offlineExtractor.js";

/** Memories read per page. */
const PAGE = 500;
/** Who changed them, in the memory's history. */
const WHO = "maintenance";
const PROCEDURE = /^Command that worked: `(.+)`$/s;
const FIX = /^`(.+?)` failed with ".*"; `.+` later succeeded\.$/s;

/**
 * The maintenance job of migration 014. Earlier versions of the offline extractor stored command facts
 * the transcript does not support: a command piped into grep counted as one that worked when grep
 * found errors, a grep that found nothing was a failure, a release command was a tip, a failure was
 * quoted as "Debugger attached.". Each command fact the offline extractor stored is read again from
 * its session's items with the current rules:
 * - the session gives it word for word: kept;
 * - the session gives the same command's fact in other words (a better quoted error, a `cd` made
 *   relative): replaced by that wording;
 * - no run of the command has a recorded result (a Codex session imported before its end events were
 *   read): left alone, since nothing here says otherwise;
 * - otherwise forgotten.
 * Each change is in the memory's history, by "maintenance". The session's stage-1 output is then
 * written again by the current extractor, so MEMORY.md, which phase 2 builds from those outputs, says
 * what the store now says, and its facts are ingested again by the next fact step (a fact already
 * stored is a duplicate there; a command fact the old reading missed is added). Sessions a model
 * extracted, and sessions whose items are gone, are left alone. Resumable: a changed memory no longer
 * matches.
 */
export async function refreshCommandFacts(store: MemoryStore, lease: Lease, now: () => number): Promise<void> {
  const { upTo } = lease.payload as { upTo: number };
  const { storage } = store;
  for (let after = 0; ; ) {
    const rows = storage.memories.pipelineFactsLike(COMMAND_FACT_PATTERNS, after, upTo, PAGE);
    if (rows.length === 0) return;
    for (const [sessionId, facts] of bySession(rows)) {
      const reading = readAgain(store, sessionId);
      if (!reading) continue;
      for (const fact of facts) await refresh(store, fact, reading);
      rewriteOutput(store, reading, now);
    }
    after = rows[rows.length - 1]!.id;
    storage.jobs.heartbeat(lease);
  }
}

async function refresh(store: MemoryStore, fact: MemoryRecord, reading: Reading): Promise<void> {
  if (reading.hashes.has(fact.contentHash)) return;
  const procedure = PROCEDURE.exec(fact.content);
  const fix = procedure ? null : FIX.exec(fact.content);
  const line = procedure?.[1] ?? fix?.[1];
  if (line === undefined) return;
  const command = sessionCommand(line, reading.session.cwd);
  const now = procedure ? reading.procedures.get(command) : reading.fixes.get(command);
  if (now !== undefined) {
    await store.replace(
      fact.id,
      {
        content: now,
        ...(memoryTypes.includes(fact.type as MemoryType) ? { type: fact.type as MemoryType } : {}),
        ...(fact.who === null ? {} : { who: fact.who }),
        provenance: fact.provenance,
      },
      { reason: "the session shows this command's outcome in other words (re-read by the offline extractor)" },
    );
    return;
  }
  const runs = reading.runs.filter((run) => run.command === command);
  if (!runs.some((run) => run.resultItemId !== null)) return;
  store.forget(fact.id, {
    who: WHO,
    reason: "the session does not show this command's outcome (re-read by the offline extractor)",
  });
}

/** The session's stage-1 output as the current offline extractor writes it, its facts pending ingest. */
function rewriteOutput(store: MemoryStore, reading: Reading, now: () => number): void {
  const extraction = extractOffline(reading.session, reading.items.forward());
  if (!extraction) return;
  const { usageCount, lastUsage, selectedForPhase2, selectedForPhase2SourceUpdatedAt, ...kept } = reading.output;
  store.storage.stage1.upsert({ ...kept, ...extraction, generatedAt: now() });
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

/** A session read again: its record, items and stage-1 output, its commands, the hashes of the facts they give. */
interface Reading extends CommandReading {
  session: SessionRecord;
  items: SessionItems;
  output: Stage1Output;
  hashes: Set<string>;
}

/** The session read again; undefined when it cannot be (a model extracted it, or its items are gone). */
function readAgain(store: MemoryStore, sessionId: string): Reading | undefined {
  const { storage } = store;
  const session = storage.sessions.get(sessionId);
  const output = storage.stage1.get(sessionId);
  if (output?.generator !== "offline" || !session) return undefined;
  const items = storedItems(storage.items, sessionId);
  if (items.count === 0) return undefined;
  const reading = commandReading(session, items.forward());
  const facts = [...reading.procedures.values(), ...reading.fixes.values()];
  const hashes = new Set(facts.map((text) => normalizeContent(guardText(text)).contentHash));
  return { ...reading, session, items, output, hashes };
}
