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
  /**
   * The items with their positions in the session (0 = the first), from the first on or from the last
   * back. A position stays true when an item goes missing between two reads (another process rewrote
   * the session), where counting the items read would not.
   */
  walk(from: "start" | "end"): Iterable<[number, ItemRecord]>;
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
    *walk(from) {
      if (from === "start") for (const [position, item] of items.entries()) yield [position, item];
      else for (let position = items.length - 1; position >= 0; position--) yield [position, items[position]!];
    },
    countWithText: (roles) => items.filter((item) => roles.has(item.role) && item.text.trim().length > 0).length,
  };
}
