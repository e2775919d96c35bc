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

  /** Paragraphs of 40 to 400 characters, each with words of its own, like a handbook's. */
  const handbook = (count: number) =>
    Array.from({ length: count }, (_, i) => {
      const sentence = `Step ${i} of the procedure covers topic${i} and its checks. `;
      return sentence.repeat(1 + ((i * 7) % 6)).trim();
    });
  /** The chunks of `after` that `before` did not have, and those of `before` that `after` dropped. */
  const replaced = (before: string[], after: string[]) => ({
    added: after.filter((chunk) => !before.includes(chunk)).length,
    removed: before.filter((chunk) => !after.includes(chunk)).length,
  });

  it("cuts between paragraphs, packed up to the chunk size, so an edit replaces only the chunks it touched", () => {
    const paragraphs = handbook(80);
    const text = paragraphs.join("\n\n");
    const before = chunkText(text, 1000, 100);
    expect(before.length).toBeGreaterThan(12);
    for (const chunk of before) expect(chunk.length).toBeLessThanOrEqual(1000);
    // Each chunk is whole paragraphs: none starts or ends inside one.
    for (const chunk of before) for (const part of chunk.split("\n\n")) expect(paragraphs).toContain(part);
    expect(before.join("\n\n")).toBe(text);

    for (const at of [3, 40, 77]) {
      const edited = [...paragraphs];
      edited[at] = `${edited[at]} One more sentence was added here.`;
      const change = replaced(before, chunkText(edited.join("\n\n"), 1000, 100));
      // The touched chunk, and at most a neighbour when the edit moved a boundary.
      expect(change.added).toBeGreaterThanOrEqual(1);
      expect(change.added).toBeLessThanOrEqual(2);
      expect(change.removed).toBeLessThanOrEqual(2);
    }
    // A paragraph inserted at the top and one removed in the middle: the same.
    expect(
      replaced(before, chunkText(["A new opening paragraph.", ...paragraphs].join("\n\n"), 1000, 100)).added,
    ).toBeLessThanOrEqual(2);
    const removed = paragraphs.filter((_, i) => i !== 50);
    expect(replaced(before, chunkText(removed.join("\n\n"), 1000, 100)).removed).toBeLessThanOrEqual(2);
  });

  it("keeps edits local over many random edits of a long text (a paragraph changed, inserted or removed)", () => {
    // A fixed pseudo-random sequence: the same text and edits on every run.
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const word = () => Math.floor(random() * 1e6).toString(36);
    const paragraph = () => `${Array.from({ length: 5 + Math.floor(random() * 120) }, word).join(" ")}.`;
    const text = Array.from({ length: 300 }, paragraph);
    const before = chunkText(text.join("\n\n"), 2000, 200);
    const counts: number[] = [];
    for (let edit = 0; edit < 100; edit++) {
      const edited = [...text];
      const at = Math.floor(random() * edited.length);
      const kind = random();
      if (kind < 0.4) edited[at] = `${edited[at]} ${word()} ${word()}.`;
      else if (kind < 0.7) edited.splice(at, 0, paragraph());
      else edited.splice(at, 1);
      const change = replaced(before, chunkText(edited.join("\n\n"), 2000, 200));
      counts.push(Math.max(change.added, change.removed));
    }
    expect(Math.max(...counts)).toBeLessThanOrEqual(3);
    expect(counts.filter((count) => count <= 2).length).toBeGreaterThanOrEqual(95);
  });

  it("starts a chunk at each Markdown heading and keeps a heading with the text after it", () => {
    const text = [
      "# Deploy",
      "Intro paragraph.",
      "## Staging",
      "Staging needs a review.",
      "## Rollback",
      "Rollback takes five minutes.",
    ].join("\n\n");
    expect(chunkText(text.repeat(1), 60, 10)).toEqual([
      "# Deploy\n\nIntro paragraph.",
      "## Staging\n\nStaging needs a review.",
      "## Rollback\n\nRollback takes five minutes.",
    ]);
    // A heading line without a blank line before it starts a chunk too; a # inside a code fence is not a heading.
    const fenced = "Run this:\n```\n# not a heading\nmake\n```\n## Next\nThen this.";
    expect(chunkText(fenced, 40, 5)).toEqual(["Run this:\n```\n# not a heading\nmake\n```", "## Next\nThen this."]);
  });

  it("cuts a paragraph longer than the chunk size at its lines, and a line longer than that into overlapping windows", () => {
    const lines = handbook(40).map((line) => line.slice(0, 120).trim());
    const long = lines.join("\n");
    const chunks = chunkText(`Before.\n\n${long}\n\nAfter.`, 500, 50);
    for (const chunk of chunks) expect(chunk.length).toBeLessThanOrEqual(500);
    expect(chunks[0]).toBe("Before.");
    expect(chunks.at(-1)).toBe("After.");
    const inside = chunks.slice(1, -1);
    expect(inside.length).toBeGreaterThan(3);
    // A cut inside the paragraph falls between two of its lines, and the next chunk starts with (at most)
    // the overlap before the cut: the end of the line before, from a word.
    expect(inside[0]!.split("\n").every((line) => lines.includes(line))).toBe(true);
    for (let i = 1; i < inside.length; i++) {
      const [lead, ...rest] = inside[i]!.split("\n");
      expect(lead!.length).toBeLessThanOrEqual(50);
      expect(inside[i - 1]!.endsWith(lead!)).toBe(true);
      for (const line of rest) expect(lines).toContain(line);
    }
    const edited = [...lines];
    edited[20] = "Step 20 changed.";
    const change = replaced(chunks, chunkText(`Before.\n\n${edited.join("\n")}\n\nAfter.`, 500, 50));
    expect(change.added).toBeLessThanOrEqual(2);
  });

  it("refuses an overlap that would never move forward", () => {
    expect(() => chunkText(words(100), 50, 50)).toThrow(/below the chunk size/);
  });
});
