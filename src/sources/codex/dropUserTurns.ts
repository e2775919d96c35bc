import type { SessionItem } from "../types.js";

/**
 * Applies a rollback of `turns` user turns: each turn starts at a user item, and the turn's user item
 * and everything after it go. Rolling back more turns than exist leaves what preceded the first one.
 */
export function dropUserTurns(items: SessionItem[], turns: number): void {
  if (!Number.isInteger(turns) || turns <= 0) return;
  let seen = 0;
  let cut = -1;
  for (let index = items.length - 1; index >= 0 && seen < turns; index -= 1) {
    if (items[index]?.role === "user") {
      seen += 1;
      cut = index;
    }
  }
  if (cut !== -1) items.length = cut;
}
