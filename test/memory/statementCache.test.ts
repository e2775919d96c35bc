import { describe, expect, it } from "vitest";
import { openDatabase } from "../../src/store/connection.js";
import { cached } from "../../src/store/statements.js";

describe("statement cache", () => {
  it("prepares a statement once per connection and SQL text", () => {
    const { db: one } = openDatabase(":memory:");
    const { db: two } = openDatabase(":memory:");
    const a = cached(one, "SELECT 1 AS x");
    expect(cached(one, "SELECT 1 AS x")).toBe(a);
    expect(cached(one, "SELECT 2 AS x")).not.toBe(a);
    expect(cached(two, "SELECT 1 AS x")).not.toBe(a);
    expect(a.get()).toEqual({ x: 1 });
    one.close();
    two.close();
  });
});
