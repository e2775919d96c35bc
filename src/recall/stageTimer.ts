import type { RecallTimings } from "../memory/types.js";

const round = (ms: number) => Math.round(ms * 1000) / 1000;

/** Wall time per recall stage, for the response's `timings` (benchmarks and slow-query logs read it). */
export function stageTimer(): { lap(name: string): void; done(): RecallTimings } {
  const started = performance.now();
  let mark = started;
  const stages: Record<string, number> = {};
  return {
    lap(name) {
      const now = performance.now();
      stages[name] = round(now - mark);
      mark = now;
    },
    done: () => ({ totalMs: round(performance.now() - started), stages }),
  };
}
