import { describe, expect, it } from "vitest";
import { abandonedLines } from "../../src/sources/claudeCode/abandonedLines.js";
import type { ClaudeLine } from "../../src/sources/claudeCode/claudeLine.js";

/** A line of a transcript: its number, uuid, parent and what it is. */
function line(n: number, uuid: string, parentUuid: string | null, type = "user", messageId?: string): ClaudeLine {
  return {
    line: n,
    type,
    uuid,
    parentUuid,
    isSidechain: false,
    isMeta: false,
    isCompactSummary: false,
    content: "text",
    ...(messageId ? { messageId } : {}),
  };
}

describe("abandonedLines", () => {
  const chain = [
    line(1, "a", null),
    line(2, "b", "a", "assistant", "m1"),
    line(3, "c", "b"),
    line(4, "d", "c", "assistant", "m2"),
  ];

  it("leaves nothing behind in a transcript that never branched, a trailing progress line included", () => {
    expect([...abandonedLines(chain)]).toEqual([]);
    expect([...abandonedLines([...chain, line(5, "e", "d", "progress")])]).toEqual([]);
  });

  it("drops the branch a user left by editing a prompt", () => {
    // The user edited line 3: a second prompt under line 2, and the conversation goes on from there.
    const edited = [...chain, line(5, "c2", "b"), line(6, "d2", "c2", "assistant", "m3")];
    expect([...abandonedLines(edited)].sort()).toEqual([3, 4]);
  });
});
