import type { ItemRecord } from "../../collection/types.js";

/**
 * A session's items as phase 1 reads them: in order from the start or back from the end, a page at a
 * time, so that neither renderer nor offline extractor holds a whole session (a transcript can be
 * hundreds of MB). A reader stops when it has what it needs; the rest is never read.
 */
export interface SessionItems {
  /** Items in the session. */
  readonly count: number;
  /** Id of the first item in session order; null when there is none. */
  readonly firstId: number | null;
  /** Id of the last item in session order (the watermark an output covers); null when there is none. */
  readonly lastId: number | null;
  /** The items in session order. */
  forward(): Iterable<ItemRecord>;
  /** The items from the last back to the first. */
  backward(): Iterable<ItemRecord>;
  /** Items of one of `roles` whose text is not blank (`text.trim()` not empty). */
  countWithText(roles: ReadonlySet<string>): number;
}

/** A session whose items are in memory already (tests, library callers), behind the same interface. */
export function itemsInMemory(items: readonly ItemRecord[]): SessionItems {
  return {
    count: items.length,
    firstId: items[0]?.id ?? null,
    lastId: items.at(-1)?.id ?? null,
    forward: () => items,
    *backward() {
      for (let index = items.length - 1; index >= 0; index--) yield items[index]!;
    },
    countWithText: (roles) => items.filter((item) => roles.has(item.role) && item.text.trim().length > 0).length,
  };
}
