import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { tokenCount, truncateToTokens } from "../../src/text/tokens.js";

const require = createRequire(import.meta.url);
const o200k = require("gpt-tokenizer/encoding/o200k_base") as {
  encode(text: string): number[];
  decode(tokens: number[]): string;
};

/** The definition: the first `max` tokens of the whole text's encoding. */
function reference(text: string, max: number) {
  const tokens = o200k.encode(text);
  return tokens.length <= max
    ? { text, truncated: false }
    : { text: o200k.decode(tokens.slice(0, max)), truncated: true };
}

describe("truncateToTokens", () => {
  const texts = [
    "short",
    `PASS test/module-3.test.ts\n${"ok line\n".repeat(30)}`,
    `${"compiling src/file.ts ... step\n".repeat(30_000)}error TS2322 at the end`,
    `${"日本語のテスト、".repeat(400)}終わり`,
    `${"   \n\t".repeat(500)}${"x".repeat(5000)}`,
    `${"émoji 🚀 ".repeat(300)}done`,
  ];

  it.each([1, 7, 210, 2000])("cuts to the first %i tokens of the text's own encoding, on a token boundary", (max) => {
    for (const text of texts) {
      const cut = truncateToTokens(text, max);
      expect(cut).toEqual(reference(text, max));
      expect(tokenCount(cut.text)).toBeLessThanOrEqual(max);
    }
  });
});
