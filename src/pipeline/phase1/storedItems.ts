import type { ItemRecord } from "../../collection/types.js";
import type { ItemsRepository } from "../../store/repositories/itemsRepository.js";
import type { SessionItems } from "./sessionItems.js";

/** How much one read of a session's items brings into memory. */
export interface PageLimits {
  /** Most items per page. */
  items: number;
  /** Most text bytes per page; an item larger than this is a page of its own. */
  bytes: number;
}

/**
 * 1 MB of text per page: a session of ordinary items takes a few queries, and a page of 100 KB tool
 * outputs is gone before V8 moves it to the old generation. On a 300 MB session, 4 MB pages left the
 * offline run at 281 MB peak and 1 MB pages at 231 MB (bench/extract-memory.ts), for no measurable
 * time: a page is one indexed query.
 */
export const DEFAULT_PAGE_LIMITS: PageLimits = { items: 256, bytes: 1024 * 1024 };

/**
 * A stored session's items, read a page at a time: the ids in order and their sizes are read first
 * (no text), then each page by its ids when the reader gets to it. A page the reader does not reach
 * is never read.
 */
export function storedItems(
  repository: Pick<ItemsRepository, "outline" | "byIds" | "countWithText">,
  sessionId: string,
  limits: PageLimits = DEFAULT_PAGE_LIMITS,
): SessionItems {
  const { ids, bytes } = repository.outline(sessionId);
  function* pages(from: number, step: 1 | -1): Generator<[number, ItemRecord]> {
    for (let start = from; start >= 0 && start < ids.length; ) {
      let end = start;
      let size = 0;
      // Grow the page while it stays within both limits (always at least one item).
      while (
        end >= 0 &&
        end < ids.length &&
        Math.abs(end - start) < limits.items &&
        (end === start || size + bytes[end]! <= limits.bytes)
      ) {
        size += bytes[end]!;
        end += step;
      }
      const first = Math.min(start, end - step);
      const page = ids.slice(first, first + Math.abs(end - start));
      const positions = new Map(page.map((id, offset) => [id, first + offset]));
      const items = repository.byIds(page);
      if (step === -1) items.reverse();
      for (const item of items) yield [positions.get(item.id)!, item];
      start = end;
    }
  }
  return {
    count: ids.length,
    firstId: ids[0] ?? null,
    lastId: ids.at(-1) ?? null,
    *forward() {
      for (const [, item] of pages(0, 1)) yield item;
    },
    walk: (from) => (from === "start" ? pages(0, 1) : pages(ids.length - 1, -1)),
    countWithText: (roles) => repository.countWithText(sessionId, roles),
  };
}
