import type { Storage } from "../../store/storage.js";
import type { MemoryRecord } from "../../store/types/memoryRecord.js";
import { aboutOtherOccasions, reportedOccasion } from "../../text/reportedOccasion.js";
import type { StaleStatement } from "../../workspace/staleStatements.js";
import type { WorkspaceRef } from "../../workspace/workspacePaths.js";
import { GLOBAL_WORKSPACE } from "../../workspace/workspacePaths.js";

/** The newest stale memories a workspace is checked against; older ones have long left the inputs. */
const STALE_LIMIT = 500;
/** A chain of replacements longer than this is cut (a cycle cannot occur, but a bad row must not hang). */
const MAX_HOPS = 20;

/**
 * What is no longer true, from the store: every superseded memory with the live memory that replaced
 * it (following a chain of replacements to its end) and every forgotten one, newest first, except
 * those a live memory of the same scope still states word for word.
 */
export function staleStatements(storage: Storage, scopes: string[] | "all", limit = STALE_LIMIT): StaleStatement[] {
  const seen = new Set<string>();
  const out: StaleStatement[] = [];
  for (const record of storage.memories.staleIn(scopes, limit)) {
    const key = `${record.scope}\u0000${record.contentHash}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const successor = liveSuccessor(storage, record);
    out.push({
      scope: record.scope,
      statement: record.content,
      replacement: successor?.content ?? null,
      // The day the change was said (the successor's own date) reads better than the day cairn noticed it.
      at: successor?.occurredAt ?? record.supersededAt ?? record.deletedAt ?? record.updatedAt,
    });
  }
  return out;
}

/**
 * What may no longer be true: each memory an open review flag doubts against a newer live memory,
 * newest flag first (the pair oriented by the review repository: the statement said first is doubted).
 * A pair of reports about different commands or errors is left out: neither can replace the other.
 */
export function doubtedStatements(storage: Storage, scopes: string[] | "all", limit = STALE_LIMIT): StaleStatement[] {
  const seen = new Set<number>();
  return storage.reviews.openPairs(scopes === "all" ? { limit } : { scopes, limit }).flatMap((pair) => {
    const older = storage.memories.get(pair.older);
    const newer = storage.memories.get(pair.newer);
    if (!older || !newer || seen.has(older.id)) return [];
    // A flag raised before reports of different commands or errors were told apart: marking one
    // with the other would cast doubt between two things that are both true.
    if (aboutOtherOccasions(reportedOccasion(older.content), reportedOccasion(newer.content))) return [];
    seen.add(older.id);
    const doubt: StaleStatement = {
      scope: older.scope,
      statement: older.content,
      replacement: newer.content,
      at: newer.occurredAt ?? newer.createdAt,
      doubted: true,
    };
    return [doubt];
  });
}

/** What the injection guard checks summaries against (`superseded.json`): the stale, then the doubted. */
export function guardStatements(storage: Storage, limit: number): StaleStatement[] {
  return [...staleStatements(storage, "all", limit), ...doubtedStatements(storage, "all", limit)];
}

/**
 * The scopes whose stale memories a workspace's text is checked against: a project's own and the
 * global scope (its sessions state user-level preferences too); for the global workspace every scope,
 * because its preferences are those stated in several projects.
 */
export function staleScopes(workspace: WorkspaceRef): string[] | "all" {
  return workspace.kind === "global" ? "all" : [workspace.key, GLOBAL_WORKSPACE];
}

/** The live end of a memory's chain of replacements; undefined when it was withdrawn on the way. */
function liveSuccessor(storage: Storage, record: MemoryRecord): MemoryRecord | undefined {
  let current = record;
  for (let hop = 0; hop < MAX_HOPS && current.supersededBy !== null; hop++) {
    const next = storage.memories.get(current.supersededBy);
    if (!next) return undefined;
    if (next.deletedAt === null) return next;
    current = next;
  }
  return undefined;
}
