import { describe, expect, it } from "vitest";
import {
  endsInsidePrivate,
  guardDeep,
  guardItem,
  guardOptional,
  guardTurns,
  PRIVATE_MARKER,
  PRIVATE_OPEN_MARKER,
  stripUrlCredentials,
} from "../../src/redact/index.js";

const token = "ghp_R7kW2pQ9xZ4mN8vB3cL6tY1hJ5gF0dS2aE7u";

describe("the store's guard for optional columns and JSON values", () => {
  it("guards a string and keeps null and undefined", () => {
    expect(guardOptional(`x ${token} <private>plan</private>`)).toBe(`x [REDACTED:github-token] ${PRIVATE_MARKER}`);
    expect(guardOptional(null)).toBeNull();
    expect(guardOptional(undefined)).toBeUndefined();
  });

  it("guards every string and key of a JSON value, private blocks included", () => {
    expect(guardDeep({ "<private>k</private>": [`t ${token}`, 3], note: "<private>salary</private> ok" })).toEqual({
      [PRIVATE_MARKER]: ["t [REDACTED:github-token]", 3],
      note: `${PRIVATE_MARKER} ok`,
    });
  });
});

describe("guardItem and guardTurns on items met again", () => {
  it("guard an item in place and return it", () => {
    const item = { text: `t ${token} <private>x</private>`, id: 7 };
    expect(guardItem(item)).toBe(item);
    expect(item).toEqual({ text: `t [REDACTED:github-token] ${PRIVATE_MARKER}`, id: 7 });
  });

  it("read a block left open from a user message guarded before, and guard the others", () => {
    const earlier = { role: "user", text: "notes <private>MARK1" };
    expect(guardTurns([earlier])).toBe(true);
    // The import guards a batch, and a later batch (or the items repository) meets the same items again.
    const items = [earlier, { role: "user", text: `MARK2 ${token} </private> public` }];
    expect(guardTurns(items)).toBe(false);
    expect(items.map((item) => item.text)).toEqual([`notes ${PRIVATE_OPEN_MARKER}`, `${PRIVATE_MARKER} public`]);
    const closed = { role: "user", text: "all public" };
    guardTurns([closed]);
    expect(guardTurns([closed], true)).toBe(false);
    expect(closed.text).toBe("all public");
  });

  it("leave the text of an assistant's, a tool's or a system message outside the user's open block", () => {
    const items = [
      { role: "user", text: "start <private>MARK1" },
      { role: "tool", text: `${token} from a file` },
      { role: "system", text: "a </private> b" },
    ];
    expect(guardTurns(items)).toBe(true);
    expect(items.map((item) => item.text)).toEqual([
      `start ${PRIVATE_OPEN_MARKER}`,
      "[REDACTED:github-token] from a file",
      "a  b",
    ]);
  });
});

describe("the markers a user reads", () => {
  it("say what was withheld, an open block included", () => {
    expect(PRIVATE_MARKER).toBe("[REDACTED:private]");
    expect(guardOptional("notes <private>to the end")).toBe("notes [REDACTED:private-open]");
  });
});

describe("endsInsidePrivate", () => {
  it("is true only for a stored text that ends with the open-block marker", () => {
    expect(endsInsidePrivate(`a ${PRIVATE_OPEN_MARKER}`)).toBe(true);
    expect(endsInsidePrivate(`${PRIVATE_OPEN_MARKER} a`)).toBe(false);
    expect(endsInsidePrivate(`a ${PRIVATE_MARKER}`)).toBe(false);
    expect(endsInsidePrivate(null)).toBe(false);
    expect(endsInsidePrivate(undefined)).toBe(false);
  });
});

describe("stripUrlCredentials, more remotes", () => {
  it.each([
    ["http://bob@example.com/repo", "http://example.com/repo"],
    [`HTTPS://x:${token}@github.com/o/r`, "HTTPS://github.com/o/r"],
    ["git+ssh://git@host/o/r", "git+ssh://git@host/o/r"],
    ["ssh+git://git@host/o/r", "ssh+git://git@host/o/r"],
    ["SSH://git@host/o/r", "SSH://git@host/o/r"],
    ["git+ssh://git:pw@host/o/r", "git+ssh://host/o/r"],
    ["https://host/o/r@v1", "https://host/o/r@v1"],
    ["https://host/o/r?by=a@b", "https://host/o/r?by=a@b"],
    ["see https://u:p@host/x", "see https://u:p@host/x"],
    ["sshx://git@host/o/r", "sshx://host/o/r"],
  ])("%s -> %s", (url, expected) => expect(stripUrlCredentials(url)).toBe(expected));
});
