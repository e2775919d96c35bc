import type { Cairn } from "../../src/index.js";

/**
 * Pushes one finished session in which the user said `said` in `cwd` and the agent answered, a minute
 * after the last one; `advance` moves the test's clock by the given milliseconds and returns the time.
 */
export function saidSession(
  cairn: Cairn,
  session: { id: string; cwd: string; said: string },
  advance: (ms: number) => number,
): void {
  const at = { agent: "push" as const, cwd: session.cwd };
  cairn.appendHistory(session.id, { role: "user", text: session.said, ts: advance(60_000) }, at);
  cairn.appendHistory(session.id, { role: "assistant", text: "Noted.", ts: advance(1000) }, at);
  cairn.endSession(session.id);
}
