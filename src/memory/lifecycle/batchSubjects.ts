import type { Storage } from "../../store/storage.js";
import { subjectKeys } from "../../text/subjectNames.js";
import type { MemoryRecord } from "../types.js";

/**
 * The memories sharing a subject key with each memory of a revise batch, read for the whole batch at
 * once (`liveBySubject`: one query per scope) instead of one query per memory, whose fixed cost was most
 * of a memory's subject check. `of` answers exactly what `sharingSubject` would at that moment of the
 * batch: the batch runs in one write transaction, so nothing becomes live while it runs, and what it
 * retires (`retired`) is left out; a key whose list was full and lost a member is read again, since a
 * memory past the limit may now be among the newest live ones.
 */
export class BatchSubjects {
  /** Per scope, per key: live memory ids, newest first, at most `limit`. */
  private readonly lists = new Map<string, Map<string, number[]>>();

  constructor(
    private readonly storage: Storage,
    memories: readonly MemoryRecord[],
    private readonly retired: ReadonlySet<number>,
    private readonly limit: number,
  ) {
    const keysByScope = new Map<string, Set<string>>();
    for (const memory of memories) {
      const keys = keysByScope.get(memory.scope) ?? new Set<string>();
      for (const key of subjectKeys(memory.content)) keys.add(key);
      keysByScope.set(memory.scope, keys);
    }
    for (const [scope, keys] of keysByScope)
      this.lists.set(scope, storage.memories.liveBySubject(scope, [...keys], limit));
  }

  /** The live memories of `scope` under any of `keys`, newest first, at most `limit`. */
  of(scope: string, keys: readonly string[]): number[] {
    const lists = this.lists.get(scope);
    if (!lists || keys.some((key) => !lists.has(key)))
      return this.storage.memories.sharingSubject(scope, keys, this.limit);
    const ids = new Set<number>();
    for (const key of keys) {
      let list = lists.get(key) ?? [];
      const live = list.filter((id) => !this.retired.has(id));
      if (live.length < list.length) {
        list = list.length >= this.limit ? this.reread(scope, key) : live;
        lists.set(key, list);
      }
      for (const id of list) ids.add(id);
    }
    return [...ids].sort((a, b) => b - a).slice(0, this.limit);
  }

  private reread(scope: string, key: string): number[] {
    return this.storage.memories.liveBySubject(scope, [key], this.limit).get(key) ?? [];
  }
}
