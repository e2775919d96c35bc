import type { RecallConfig } from "../../config/recallConfig.js";
import { contextAnchors, linkNeighbors, spreadContext } from "../contextSpread.js";
import type { RecallStage } from "../stage.js";

/** How many top candidates may lend score to their session neighbours. */
const CONTEXT_ANCHORS = 30;

/**
 * Conversation context: the best candidates lend part of their score to the memories of the items
 * next to them in the same session, admitting neighbours that matched nothing themselves.
 */
export function contextStage(options: RecallConfig["context"]): RecallStage {
  return {
    name: "context",
    apply(ctx, candidates) {
      const anchors = contextAnchors(candidates, CONTEXT_ANCHORS);
      const neighbors = ctx.deps.memories.sessionNeighbors(
        anchors.map((a) => ({ sessionId: a.ref.sessionId!, item: a.ref.itemFrom!, scope: a.ref.scope })),
        options.window,
      );
      const links = linkNeighbors(anchors, neighbors, options.window);
      const known = new Set(candidates.map((c) => c.id));
      const fresh = [...new Set(links.map((l) => l.neighborId))].filter((id) => !known.has(id));
      const all = [...candidates, ...ctx.admit(fresh)];
      spreadContext(new Map(all.map((c) => [c.id, c])), links, options);
      return all;
    },
  };
}
