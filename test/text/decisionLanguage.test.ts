import { describe, expect, it } from "vitest";
import { isDecisionContent } from "../../src/text/decisionLanguage.js";
import { isTopicWord, STOP_WORDS } from "../../src/text/stopWords.js";

describe("decision language (one battery for remember and the offline extractor)", () => {
  it.each([
    "We chose Postgres over MySQL for the orders service",
    "I chose to go with vitest",
    "Switching from npm to pnpm in this repo",
    "We migrated away from Jest",
    "Decided against a monorepo",
    "We will stick with the REST API",
  ])("recognizes %j", (text) => {
    expect(isDecisionContent(text)).toBe(true);
  });

  it.each(["Run the tests with pnpm vitest --run", "The API listens on port 8080", "Which switch is on?"])(
    "leaves %j alone",
    (text) => {
      expect(isDecisionContent(text)).toBe(false);
    },
  );
});

describe("topic words", () => {
  it("skips stop words and words too common in sessions to name a topic, and keeps the rest", () => {
    expect(STOP_WORDS.has("before")).toBe(true);
    expect(isTopicWord("before")).toBe(false);
    expect(isTopicWord("run")).toBe(false);
    expect(STOP_WORDS.has("run")).toBe(false);
    expect(isTopicWord("migrations")).toBe(true);
  });
});
