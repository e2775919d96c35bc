import { describe, expect, it } from "vitest";
import { chunkText } from "../../../src/memory/documents/chunkText.js";

const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(" ");

describe("chunkText", () => {
  it("cuts windows of at most the chunk size, each starting with the end of the one before (at most the overlap)", () => {
    const text = words(400);
    const chunks = chunkText(text, 200, 40);
    expect(chunks.length).toBeGreaterThan(10);
    for (const chunk of chunks) expect(chunk.length).toBeLessThanOrEqual(200);
    for (let i = 1; i < chunks.length; i++) {
      const previous = chunks[i - 1]!;
      // The shared part: the longest tail of the previous chunk the next one starts with.
      let shared = 0;
      for (let n = Math.min(40, previous.length); n > 0; n--)
        if (chunks[i]!.startsWith(previous.slice(-n))) {
          shared = n;
          break;
        }
      expect(shared).toBeGreaterThan(0);
      expect(shared).toBeLessThanOrEqual(40);
      // Windows end and start at words: no chunk opens or closes mid-word.
      expect(chunks[i]).toMatch(/^word\d+/);
      expect(previous).toMatch(/(\s|word\d+)$/);
    }
    // Nothing is lost: every word is in some chunk.
    for (const word of text.split(" ")) expect(chunks.some((chunk) => chunk.split(/\s+/).includes(word))).toBe(true);
  });

  it("keeps a text no longer than one chunk whole, and cuts a text with no spaces at the exact size and overlap", () => {
    expect(chunkText("short text", 200, 20)).toEqual(["short text"]);
    expect(chunkText("   \n ", 200, 20)).toEqual([]);
    const solid = "x".repeat(500);
    const chunks = chunkText(solid, 200, 50);
    expect(chunks.map((chunk) => chunk.length)).toEqual([200, 200, 200]);
    expect(chunks.join("").length).toBe(600);
  });

  it("refuses an overlap that would never move forward", () => {
    expect(() => chunkText(words(100), 50, 50)).toThrow(/below the chunk size/);
  });
});
