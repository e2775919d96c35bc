import { type Cairn, openCairn } from "../../src/index.js";

/**
 * A cairn on `home` with an offline model and no idle wait, and `push`, which appends one item to
 * session `sessionId` a second after the last (`cwd` when given: a session with no project otherwise).
 */
export function pushingCairn(
  home: string,
  session: { id: string; cwd?: string },
): { cairn: Cairn; push: (role: "user" | "assistant", text: string) => number } {
  let now = Date.parse("2026-10-01T10:00:00.000Z");
  const cairn = openCairn({
    home,
    env: {},
    clock: () => now,
    config: { "llm.provider": "offline", "memories.minRolloutIdleHours": 0 },
  });
  const push = (role: "user" | "assistant", text: string) => {
    now += 1000;
    return cairn.appendHistory(
      session.id,
      { role, text, ts: now },
      { agent: "push", ...(session.cwd ? { cwd: session.cwd } : {}) },
    );
  };
  return { cairn, push };
}
