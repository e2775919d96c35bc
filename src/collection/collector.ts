import { EXCLUDED_MARK, type Exclusion, exclusionOf } from "../project/exclusion.js";
import { endsInsidePrivate, guardTurns } from "../redact/index.js";
import type { ParsedSession, SessionInfo, SessionItem } from "../sources/types.js";
import type { ItemsRepository } from "../store/repositories/itemsRepository.js";
import type { SessionsRepository } from "../store/repositories/sessionsRepository.js";
import type { Clock } from "../util/clock.js";
import { sha256 } from "../util/hash.js";
import { markInternal } from "./internalSessions.js";
import { projectResolver } from "./projectResolver.js";

export type ApplyStatus = "new" | "updated" | "unchanged";

/** What an exclusion sweep changed: sessions newly excluded, and sessions no longer excluded. */
export interface ExclusionSweep {
  excluded: string[];
  restored: string[];
}

export interface CollectorOptions {
  /** More unprocessed items than this invalidate the session (seed 001: 5). */
  maxUnprocessedItems: number;
  clock: Clock;
  /** Project key of a session (resolved once per cwd by the caller). */
  projectKeyOf: (info: SessionInfo) => string | null;
  /** `memories.exclude`: the globs, for import lanes that build a collector of their own. */
  exclude?: readonly string[];
}

/**
 * Writes parsed sessions into the store and applies the invalidation triggers of the collection loop:
 * a compaction, or more than N items beyond `processed_until`, marks the session for processing.
 * Callers wrap calls in a write transaction; nothing here awaits.
 */
export class Collector {
  private readonly excluded: Exclusion | undefined;

  constructor(
    private readonly sessions: SessionsRepository,
    private readonly items: ItemsRepository,
    private readonly options: CollectorOptions,
  ) {
    this.excluded = exclusionOf(options.exclude);
  }

  /** The `memories.exclude` globs this collector applies. */
  get exclude(): readonly string[] {
    return this.options.exclude ?? [];
  }

  /** Whether a session is excluded by `memories.exclude`, by its cwd or project key. */
  isExcluded(info: SessionInfo): boolean {
    if (!this.excluded) return false;
    const existing = this.sessions.get(info.id);
    return this.excluded(info.cwd ?? existing?.cwd ?? null, existing?.projectKey ?? this.projectKey(info));
  }

  apply(parsed: ParsedSession, sourcePath: string | null): { status: ApplyStatus; written: number } {
    const existing = this.sessions.get(parsed.session.id);
    const info =
      existing?.kind === "internal"
        ? { ...parsed.session, kind: "internal" as const }
        : markInternal(parsed.session, parsed.items);
    if (this.excluded && this.isExcluded(info)) return this.storeExcluded(info, sourcePath, existing !== undefined);
    const hash = parsed.partial ? null : (parsed.contentHash ?? contentHash(parsed.items));
    if (existing && hash !== null && existing.contentHash === hash) {
      return { status: "unchanged", written: 0 };
    }
    // An appended read's user messages are guarded here: a block the stored ones left open continues.
    if (parsed.partial)
      guardTurns(parsed.items, existing ? endsInsidePrivate(this.items.lastUserText(info.id)) : false);
    const projectKey = existing?.projectKey ?? this.projectKey(info);
    this.sessions.upsert({ info, projectKey, sourcePath, contentHash: hash, now: this.options.clock() });
    if (info.cwd && projectKey?.startsWith("git:")) this.sessions.adoptProjectKey(info.cwd, projectKey);
    if (!existing) {
      // Every row is new: what `afterItems` would ask the store for is known.
      const { rows, maxId } = this.items.insertNew(info.id, parsed.items, sourcePath);
      if (maxId !== null) this.invalidateIfDue(info.id, parsed.items, { maxId, since: rows });
      return { status: "new", written: rows };
    }
    const partialFrom = parsed.partial ? this.items.maxSeq(info.id) : 0;
    const written = this.items.upsert(info.id, parsed.items, partialFrom, sourcePath).written;
    let removed = 0;
    if (!parsed.partial) {
      removed = this.items.deleteMissing(
        info.id,
        parsed.items.map((item) => item.key),
      );
    }
    if (written > 0) this.afterItems(info.id, parsed.items, existing.processedUntil);
    return { status: written + removed > 0 ? "updated" : "unchanged", written };
  }

  /**
   * Applies `memories.exclude` to sessions already stored: a newly excluded one loses its items and
   * is no longer pending; one no longer excluded loses its mark (its files must be read again).
   */
  sweepExclusions(): ExclusionSweep {
    const sweep: ExclusionSweep = { excluded: [], restored: [] };
    if (!this.needsExclusionSweep()) return sweep;
    for (const state of this.sessions.exclusionStates()) {
      const excluded = this.excluded?.(state.cwd, state.projectKey) ?? false;
      if (excluded && !state.excluded) {
        this.items.deleteMissing(state.id, []);
        this.sessions.markExcluded(state.id);
        sweep.excluded.push(state.id);
      } else if (!excluded && state.excluded) sweep.restored.push(state.id);
    }
    if (sweep.restored.length > 0) this.sessions.clearExcluded(sweep.restored);
    this.sessions.dropExcludedTitles();
    return sweep;
  }

  /** False when no glob is set and no session is marked excluded: a sweep would change nothing. */
  needsExclusionSweep(): boolean {
    return this.excluded !== undefined || this.sessions.countExcluded() > 0;
  }

  /** The push API: one item appended to a session an agent feeds directly. Returns the item id (0: excluded). */
  append(info: SessionInfo, item: Omit<SessionItem, "key">): number {
    if (this.excluded && this.isExcluded(info)) {
      this.storeExcluded(info, null, this.sessions.get(info.id) !== undefined);
      return 0;
    }
    const existing = this.sessions.get(info.id);
    this.sessions.upsert({
      info: existing ? { ...info, startedAt: existing.startedAt } : info,
      projectKey: existing?.projectKey ?? this.projectKey(info),
      sourcePath: null,
      contentHash: null,
      now: this.options.clock(),
    });
    const seq = this.items.maxSeq(info.id) + 1;
    const full: SessionItem = { ...item, key: `push:${seq}` };
    // A `<private>` block left open by the session's last pushed user message continues into this one.
    if (existing) guardTurns([full], endsInsidePrivate(this.items.lastUserText(info.id)));
    this.items.upsert(info.id, [full], seq - 1);
    this.afterItems(info.id, [full], existing?.processedUntil ?? null);
    return this.items.maxId(info.id) ?? 0;
  }

  /** The session ended (or was reset): whatever it has beyond `processed_until` becomes pending. */
  end(sessionId: string): boolean {
    const session = this.sessions.get(sessionId);
    if (!session) return false;
    this.sessions.setEnded(sessionId, this.options.clock());
    const maxId = this.items.maxId(sessionId);
    if (maxId !== null && maxId > (session.processedUntil ?? 0)) this.sessions.invalidate(sessionId, maxId);
    return true;
  }

  /** Idle trigger: sessions with no activity for `idleMs` and unprocessed items become pending. */
  sweepIdle(idleMs: number): number {
    return this.sessions.invalidateIdle(this.options.clock() - idleMs);
  }

  /** An excluded session: its row (metadata only, no title) with the exclusion mark, and none of its items. */
  private storeExcluded(full: SessionInfo, sourcePath: string | null, existed: boolean) {
    const { title: _title, ...info } = full;
    const projectKey = this.sessions.get(info.id)?.projectKey ?? this.projectKey(info);
    this.sessions.upsert({ info, projectKey, sourcePath, contentHash: EXCLUDED_MARK, now: this.options.clock() });
    const removed = existed ? this.items.deleteMissing(info.id, []) : 0;
    this.sessions.markExcluded(info.id);
    const status: ApplyStatus = existed ? (removed > 0 ? "updated" : "unchanged") : "new";
    return { status, written: 0 };
  }

  /** A path-only key defers to a remote another session recorded for the same cwd. */
  private projectKey(info: SessionInfo): string | null {
    const key = this.options.projectKeyOf(info);
    if (key?.startsWith("path:") && info.cwd) return this.sessions.knownRemoteKey(info.cwd) ?? key;
    return key;
  }

  /**
   * `processedUntil` is the session's as read before this write, which does not change it: the
   * session is not read again (this runs for every file of an import).
   */
  private afterItems(sessionId: string, items: readonly SessionItem[], processedUntil: number | null): void {
    const progress = this.items.progress(sessionId, processedUntil);
    if (progress.maxId !== null)
      this.invalidateIfDue(sessionId, items, { maxId: progress.maxId, since: progress.since });
  }

  /** The invalidation triggers: a compaction among the new items, or more than N of them unprocessed. */
  private invalidateIfDue(
    sessionId: string,
    items: readonly SessionItem[],
    progress: { maxId: number; since: number },
  ) {
    const compacted = items.some((item) => item.role === "compaction");
    if (compacted || progress.since > this.options.maxUnprocessedItems)
      this.sessions.invalidate(sessionId, progress.maxId);
  }
}

/** The collector of scans and pushes: project keys come from git, resolved once per cwd. */
export function createCollector(
  repositories: { sessions: SessionsRepository; items: ItemsRepository },
  options: Omit<CollectorOptions, "projectKeyOf">,
): Collector {
  return new Collector(repositories.sessions, repositories.items, { ...options, projectKeyOf: projectResolver() });
}

/** Identity of a session's content: a full re-read that hashes the same writes nothing. */
export function contentHash(items: readonly SessionItem[]): string {
  const parts: string[] = [];
  for (const item of items)
    parts.push(item.key, item.role, item.text, item.tool ?? "", item.isError ? "1" : item.outcomeUnknown ? "2" : "0");
  return sha256(parts.join("\u0000"));
}
