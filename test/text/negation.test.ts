import { describe, expect, it } from "vitest";
import { statementTokens } from "../../src/memory/lifecycle/statementTokens.js";
import { hasNegation } from "../../src/pipeline/facts/contradiction.js";
import { isNegated, isNegationWord } from "../../src/text/negation.js";

const SENTENCES: Array<[string, boolean]> = [
  ["Never use npm here anymore", true],
  ["We don't run the e2e suite on pull requests", true],
  ["The cache hasn't been warmed since the move", true],
  ["Avoid the legacy client in new code", true],
  ["Telemetry is disabled on the dev server", true],
  ["Stop using the v1 endpoints", true],
  ["Notes live in the docs folder", false],
  ["Enable telemetry on the dev server", false],
  ["The notebook runs nightly", false],
  // "No" as an answer or an interjection negates nothing; a "no" that goes on is a negation.
  ["Caroline: No worries, Mel! Your friendship means so much to me.", false],
  ["Gina: Oh no, Jon! Sorry to hear that.", false],
  ["No prob.", false],
  ["No, we use pnpm in this repo", false],
  ["No, we don't use npm in this repo", true],
  ["There's no problem with the cache in staging", true],
  ["There is no way to run the e2e suite offline", true],
];

describe("negation", () => {
  it("reads contractions with or without the apostrophe, and refusals", () => {
    for (const word of ["not", "don't", "dont", "doesn’t", "couldn't", "avoid", "forbidden"])
      expect(isNegationWord(word)).toBe(true);
    for (const word of ["note", "nothing", "know", "enable", "notebook"]) expect(isNegationWord(word)).toBe(false);
  });

  it("is one reading for supersession, the contradiction detector and every other reader", () => {
    for (const [sentence, negated] of SENTENCES) {
      expect(isNegated(sentence), sentence).toBe(negated);
      expect(statementTokens(sentence).negated, sentence).toBe(negated);
      expect(hasNegation(sentence), sentence).toBe(negated);
    }
  });
});
