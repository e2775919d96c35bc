import { describe, expect, it } from "vitest";
import { reviewLines, walkReviews } from "../../src/cli/reviewWalk.js";
import type { ReviewEntry } from "../../src/memory/reviewQueue.js";
import type { ReviewAction } from "../../src/requests/reviewActions.js";
import { CairnError } from "../../src/util/errors.js";

// The terminal walk of `cairn memory review`, driven by scripted answers.

const at = Date.UTC(2026, 10, 3, 14, 5);

function entry(flag: number, extra: Partial<ReviewEntry> = {}): ReviewEntry {
  return {
    flag,
    reason: "contradicts a newer memory",
    detector: "syntactic",
    createdAt: at,
    memory: { id: flag * 10, content: `old ${flag}`, type: "fact", scope: "global", createdAt: at, state: "live" },
    related: null,
    relatedIs: null,
    proposedContent: `new ${flag}`,
    ...extra,
  };
}

function script(answers: Array<string | undefined>, fail?: number) {
  const printed: string[] = [];
  const decisions: Array<[number, ReviewAction]> = [];
  return {
    printed,
    decisions,
    walk: (entries: ReviewEntry[]) =>
      walkReviews({
        entries,
        ask: async () => answers.shift(),
        decide: async (flag, action) => {
          if (flag === fail) throw new CairnError("memory_not_changed", `flag #${flag} cannot be decided`);
          decisions.push([flag, action]);
          return `did ${action} on #${flag}`;
        },
        print: (line) => printed.push(line),
      }),
  };
}

describe("review walk", () => {
  it("shows both sides of a flag with their dates and states", () => {
    const lines = reviewLines(
      entry(1, {
        related: {
          id: 11,
          content: "newer text",
          type: "decision",
          scope: "global",
          createdAt: at,
          state: "forgotten",
        },
        proposedContent: null,
      }),
    );
    expect(lines).toEqual([
      "flag #1 (syntactic, 2026-11-03 14:05): contradicts a newer memory",
      "  flagged  #10 (2026-11-03 14:05, fact): old 1",
      "  newer    #11 (2026-11-03 14:05, decision, forgotten): newer text",
    ]);
    expect(reviewLines(entry(2, { memory: null }))).toContain("  flagged  (the memory no longer exists)");
  });

  it("applies k, s and f, skips on n or Enter, and asks again after an unknown key", async () => {
    const run = script(["k", "x", "S", "", "n", "forget"]);
    const result = await run.walk([entry(1), entry(2), entry(3), entry(4), entry(5)]);
    expect(run.decisions).toEqual([
      [1, "keep"],
      [2, "supersede"],
      [5, "forget"],
    ]);
    expect(result).toEqual({ decided: 3, skipped: 2 });
    expect(run.printed).toContain("did supersede on #2");
  });

  it("stops on q or at the end of input, leaving the rest open", async () => {
    const quit = script(["k", "q"]);
    expect(await quit.walk([entry(1), entry(2), entry(3)])).toEqual({ decided: 1, skipped: 2 });
    const ended = script([undefined]);
    expect(await ended.walk([entry(1), entry(2)])).toEqual({ decided: 0, skipped: 2 });
    expect(ended.decisions).toEqual([]);
  });

  it("says why a flag could not be decided and goes on", async () => {
    const run = script(["s", "k"], 1);
    expect(await run.walk([entry(1), entry(2)])).toEqual({ decided: 1, skipped: 1 });
    expect(run.printed).toContain("not changed: flag #1 cannot be decided");
    expect(run.decisions).toEqual([[2, "keep"]]);
  });
});
