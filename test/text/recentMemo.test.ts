import { describe, expect, it } from "vitest";
import { RecentMemo } from "../../src/text/recentMemo.js";

describe("RecentMemo", () => {
  it("computes a key once while it is among the last `cap` computed, then drops the oldest", () => {
    const computed: string[] = [];
    const memo = new RecentMemo<string>(2);
    const read = (key: string) =>
      memo.get(key, (k) => {
        computed.push(k);
        return k.toUpperCase();
      });
    expect(read("a")).toBe("A");
    expect(read("b")).toBe("B");
    expect(read("a")).toBe("A");
    expect(computed).toEqual(["a", "b"]);
    read("c");
    expect(read("b")).toBe("B");
    expect(read("a")).toBe("A");
    expect(computed).toEqual(["a", "b", "c", "a"]);
  });
});
