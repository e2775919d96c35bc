import type { SupersededMemory } from "../memory/types.js";
import type { MemoryRepo } from "../store/contracts/memories.js";

/** A chain longer than this is cut: a result shows its recent history, not every rewrite ever made. */
const MAX_CHAIN = 20;

/**
 * For each of `ids`, the memories it replaced, then the ones those replaced, and so on: newest
 * replacement first, one walk per result. Only memories of the wanted scopes are shown (the same
 * authorization as recall); a cycle (restored and superseded again) is walked once.
 */
export function supersededChains(
  memories: Pick<MemoryRepo, "supersededBy">,
  request: { ids: number[]; scopes: string[] | "all" },
): Map<number, SupersededMemory[]> {
  const allowed = request.scopes === "all" ? null : new Set(request.scopes);
  const chains = new Map<number, SupersededMemory[]>();
  for (const id of request.ids) {
    const chain: SupersededMemory[] = [];
    const seen = new Set([id]);
    let frontier = [id];
    while (frontier.length > 0 && chain.length < MAX_CHAIN) {
      const replaced = memories
        .supersededBy(frontier)
        .filter((m) => !seen.has(m.id) && (allowed === null || allowed.has(m.scope)));
      frontier = [];
      for (const m of replaced) {
        if (chain.length >= MAX_CHAIN) break;
        seen.add(m.id);
        frontier.push(m.id);
        chain.push({
          id: m.id,
          content: m.content,
          type: m.type,
          supersededAt: m.supersededAt ?? m.updatedAt,
          supersededBy: m.supersededBy ?? id,
        });
      }
    }
    if (chain.length > 0) chains.set(id, chain);
  }
  return chains;
}
