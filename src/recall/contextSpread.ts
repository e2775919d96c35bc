import type { NeighborRow } from "../store/repositories/memoryRepository.js";
import type { Candidate } from "./candidate.js";

export interface ContextLink {
  neighborId: number;
  anchorId: number;
  /** Items between the two (1 = adjacent). */
  distance: number;
}

/** The best-scored candidates that carry a session position, which may lend score to their neighbours. */
export function contextAnchors(candidates: Iterable<Candidate>, limit: number): Candidate[] {
  return [...candidates]
    .filter((c) => c.ref.sessionId !== null && c.ref.itemFrom !== null)
    .sort((a, b) => b.score - a.score)
    .slice(0, limit);
}

/** Pairs each neighbour row with the anchors it is adjacent to. */
export function linkNeighbors(anchors: Candidate[], neighbors: NeighborRow[], window: number): ContextLink[] {
  const bySession = new Map<string, Candidate[]>();
  for (const a of anchors) {
    const key = `${a.ref.scope}\u0000${a.ref.sessionId}`;
    bySession.set(key, [...(bySession.get(key) ?? []), a]);
  }
  const links: ContextLink[] = [];
  for (const n of neighbors) {
    for (const a of bySession.get(`${n.scope}\u0000${n.sessionId}`) ?? []) {
      const distance = Math.abs((a.ref.itemFrom ?? 0) - n.itemFrom);
      if (a.id !== n.id && distance <= window) links.push({ neighborId: n.id, anchorId: a.id, distance });
    }
  }
  return links;
}

/**
 * Conversation context: memories from adjacent items of the same session (provenance session id and
 * item position) lend part of their score, `score + weight * max(0, neighbour * decay^(distance - 1) - score)`. An answer
 * often sits one turn after the question that names the topic ("What do your kids like?" /
 * "Dinosaurs!"); neither alone matches a later query well. A memory never rises above the score it
 * borrows from, so the scale stays calibrated. Scores lent are the ones before spreading (one hop).
 */
export function spreadContext(
  candidates: Map<number, Candidate>,
  links: ContextLink[],
  options: { weight: number; decay: number },
): void {
  const before = new Map([...candidates.values()].map((c) => [c.id, c.score]));
  const lent = new Map<number, number>();
  for (const link of links) {
    const anchor = (before.get(link.anchorId) ?? 0) * options.decay ** (Math.max(1, link.distance) - 1);
    lent.set(link.neighborId, Math.max(lent.get(link.neighborId) ?? 0, anchor));
  }
  for (const [id, neighbour] of lent) {
    const c = candidates.get(id);
    if (!c) continue;
    const gain = options.weight * Math.max(0, neighbour - (before.get(id) ?? 0));
    if (gain > 0) {
      c.score += gain;
      c.sources.add("context");
    }
  }
}
