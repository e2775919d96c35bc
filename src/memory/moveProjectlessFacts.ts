import type { Lease } from "../store/queue/types.js";
import type { Storage } from "../store/storage.js";
import { withWriteTx } from "../store/tx.js";
import type { MemoryRecord } from "../store/types/memoryRecord.js";
import { statesUserWideHabit } from "../text/statesUserWideHabit.js";
import { GLOBAL_SCOPE, NO_PROJECT_SCOPE } from "./scopes.js";

/** Rows per write transaction: short transactions, so a CLI call or a recall never waits long. */
const PAGE = 500;

/**
 * The maintenance job of migration 013. Before the no-project scope existed, the fact pipeline filed
 * the facts of a session with no known project (a push without `cwd`, a Gemini chat whose project
 * could not be told) under the global scope, so one repository's "the API listens on port 3000" was
 * recalled in every project. Each such memory, live or tombstoned, moves to the project its session is
 * now known to belong to, or else to the no-project scope; a user-wide preference ("I always use pnpm")
 * stays global, as the pipeline files it today. A live memory whose twin already lives where it would
 * go ends there as a tombstone (the twin says it). Every move is in the memory's history. Resumable:
 * a moved row no longer matches, so a retry picks up where the last one stopped.
 */
export function moveProjectlessFacts(storage: Storage, lease: Lease, now: () => number): void {
  const { upTo } = lease.payload as { upTo: number };
  for (let after = 0; ; ) {
    const rows = storage.memories.projectlessFacts(GLOBAL_SCOPE, after, upTo, PAGE);
    if (rows.length === 0) return;
    withWriteTx(storage.db, () => {
      for (const row of rows) if (!staysGlobal(row)) move(storage, row, now());
    });
    after = rows[rows.length - 1]!.id;
    storage.jobs.heartbeat(lease);
  }
}

/** What stage1Facts files under global today: a preference stated as the user's habit beyond one repository. */
function staysGlobal(row: MemoryRecord): boolean {
  return row.type === "preference" && statesUserWideHabit(row.content);
}

function move(storage: Storage, row: MemoryRecord, now: number): void {
  const { memories, vectors, embeddings, history } = storage;
  const session = row.provenance.sessionId;
  const project = session === undefined ? undefined : storage.sessions.get(session)?.projectKey;
  const scope = project ?? NO_PROJECT_SCOPE;
  const reason = "a fact of a session with no known project, filed as global by an earlier version";
  if (!memories.moveScope(row.id, scope, project ?? null, now)) {
    // A live twin is there: this copy ends as a tombstone beside it, which states nothing stale (a
    // tombstone in global would read as withdrawn and strike the sentence from every summary).
    memories.tombstone(row.id, now);
    memories.moveScope(row.id, scope, project ?? null, now);
    vectors.remove(row.id);
    storage.reviews.resolveAbout(row.id, "forgotten", now);
    history.add({
      memoryId: row.id,
      event: "deleted",
      oldContent: row.content,
      reason: `${reason}; the ${scope} scope states it already`,
      metadata: { from: GLOBAL_SCOPE, to: scope },
      now,
    });
    return;
  }
  if (row.deletedAt === null) {
    const vector = row.embeddingModel
      ? embeddings.getMany([row.contentHash], row.embeddingModel).get(row.contentHash)
      : undefined;
    if (vector) vectors.upsert(row.id, scope, vector, true);
    else vectors.remove(row.id);
  }
  history.add({
    memoryId: row.id,
    event: "moved",
    newContent: row.content,
    reason,
    metadata: { from: GLOBAL_SCOPE, to: scope },
    now,
  });
}
