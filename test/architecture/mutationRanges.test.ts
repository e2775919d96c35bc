import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
const { default: config } = (await import(join(ROOT, "stryker.config.mjs"))) as { default: { mutate: string[] } };

/**
 * Stryker takes a part of a file as line numbers (stryker.config.mjs): an edit above that part moves
 * other code under them, and the mutation run in CI then scores code nobody meant (a new method in the
 * sessions repository once did). Each range's first and last lines are named here; move both together.
 */
const ANCHORS: Record<string, { first: string; last: string; beforeLast?: string }> = {
  "src/store/repositories/sessionsRepository.ts": {
    first: "/** Marks the session for processing up to `itemId`. Only ever moves the mark forward. */",
    // The end of invalidateIdle.
    last: "  }",
    beforeLast: "    ).run(idleBefore).changes;",
  },
  "src/pipeline/phase1/runPhase1.ts": {
    first: "  const session = storage.sessions.get(lease.key);",
    last: '    if (error instanceof LeaseLost) return finish("lost", { error: "lease lost to another worker; result discarded" });',
  },
  "src/pipeline/phase2/consolidators/agentConsolidator.ts": {
    first: "export function agentConsolidator(options: {",
    last: "}",
  },
};

describe("mutation testing's line ranges", () => {
  const ranged = config.mutate.map((entry) => /^(.+):(\d+)-(\d+)$/.exec(entry)).filter((match) => match !== null);

  it("each name a file this test knows the first and last line of", () => {
    expect(ranged.map((match) => match[1]).sort()).toEqual(Object.keys(ANCHORS).sort());
  });

  it.each(ranged.map((match) => [match[1]!, Number(match[2]), Number(match[3])] as const))(
    "%s:%i-%i still starts and ends where it was meant to",
    (file, start, end) => {
      const lines = readFileSync(join(ROOT, file), "utf8").split("\n");
      const anchors = ANCHORS[file]!;
      expect(lines[start - 1]?.trimStart()).toBe(anchors.first.trimStart());
      expect(lines[end - 1]).toBe(anchors.last);
      if (anchors.beforeLast !== undefined) expect(lines[end - 2]).toBe(anchors.beforeLast);
    },
  );
});
