import { describe, expect, it } from "vitest";
import { parseRequest } from "../../src/requests/parseRequest.js";
import { recallRequest } from "../../src/requests/recall.js";
import { rememberItem, rememberRequest } from "../../src/requests/remember.js";

function messageOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    return (error as Error).message;
  }
  return "accepted";
}

describe("request problems", () => {
  it("tell a missing field from a present one of the wrong type by the issue's input, not zod's wording", () => {
    const recall = recallRequest(50);
    expect(messageOf(() => parseRequest(recall, {}))).toBe("query is required");
    expect(messageOf(() => parseRequest(recall, { query: undefined }))).toBe("query is required");
    expect(messageOf(() => parseRequest(recall, { query: null }))).toBe("query must be a string; got null");
    expect(messageOf(() => parseRequest(recall, { query: ["x"] }))).toBe("query must be a string; got an array");
    expect(messageOf(() => parseRequest(recall, { query: "x", k: 2.5 }))).toBe(
      "k must be a whole number; got a number",
    );
  });

  it("name the field, the limit and what is allowed", () => {
    expect(messageOf(() => parseRequest(recallRequest(50), { query: "  " }))).toBe("query must not be empty");
    expect(messageOf(() => parseRequest(recallRequest(50), { query: "x", qk: 1 }))).toBe("unknown field qk");
    expect(messageOf(() => parseRequest(rememberItem(), { content: "x", type: "nope" }))).toMatch(
      /^type must be one of fact, preference, /,
    );
    expect(
      messageOf(() => parseRequest(rememberRequest(), { items: [{ content: "x" }, { content: "y".repeat(10_001) }] })),
    ).toBe("items.1.content must be at most 10000 characters (the limit for one memory); got 10001");
    expect(messageOf(() => parseRequest(rememberRequest(), { items: Array(1001).fill({ content: "x" }) }))).toBe(
      "items must have at most 1000 items (the limit for one request); got 1001",
    );
  });

  it("return the parsed request when it is valid", () => {
    expect(parseRequest(recallRequest(50), { query: "  builds  ", k: 50 })).toEqual({ query: "builds", k: 50 });
  });
});
