import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TAIL_BYTES, tailHashOf } from "../../src/sources/adapter.js";
import { type JsonLinesLimits, type JsonLinesRead, readJsonLines } from "../../src/sources/jsonl.js";

/** Small limits so a few bytes exercise what megabytes do in a real file. */
const tiny = (limits: Partial<JsonLinesLimits>) => ({ limits: { chunkBytes: 5, ...limits } });

describe("readJsonLines reads in bounded chunks", () => {
  let dir: string;
  let path: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "cairn-jsonl-"));
    path = join(dir, "t.jsonl");
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("reassembles lines spanning chunk borders, CRLF endings and multibyte characters split across chunks", () => {
    const lines = ['{"t":"héllo wörld"}', '{"t":"日本語のテキスト"}', "", '{"t":"emoji 🎉🎉"}'];
    writeFileSync(path, `${lines.join("\r\n")}\r\n`);
    for (const chunkBytes of [1, 2, 3, 5, 7, 64]) {
      const read = readJsonLines(path, undefined, tiny({ chunkBytes }));
      expect(read.records.map((record) => [record.line, (record.value as { t: string }).t])).toEqual([
        [1, "héllo wörld"],
        [2, "日本語のテキスト"],
        [4, "emoji 🎉🎉"],
      ]);
      expect(read.blank).toBe(1);
      expect(read.problems).toEqual([]);
      expect(read.endOffset).toBe(Buffer.byteLength(`${lines.join("\r\n")}\r\n`));
    }
  });

  it("leaves a torn last line for the next read and keeps a complete one without its newline", () => {
    writeFileSync(path, '{"a":1}\n{"a":2');
    const torn = readJsonLines(path, undefined, tiny({}));
    expect(torn.records).toHaveLength(1);
    expect(torn).toMatchObject({ torn: true, endOffset: 8, endLine: 1 });
    writeFileSync(path, '{"a":1}\n{"a":2}');
    const whole = readJsonLines(path, undefined, tiny({}));
    expect(whole.records).toHaveLength(2);
    expect(whole).toMatchObject({ torn: false, endOffset: 15, endLine: 2 });
  });

  it("skips and reports a line over the line limit without buffering it, and reads on", () => {
    const long = `{"t":"${"x".repeat(200)}"}`;
    writeFileSync(path, `{"a":1}\n${long}\n{"a":3}\n`);
    const read = readJsonLines(path, undefined, tiny({ maxLineBytes: 40 }));
    expect(read.records.map((record) => record.line)).toEqual([1, 3]);
    expect(read.problems).toEqual([{ file: path, line: 2, reason: "line longer than 40 bytes skipped" }]);
    expect(read.endOffset).toBe(8 + long.length + 1 + 8);
    // The same within one chunk.
    const oneChunk = readJsonLines(path, undefined, tiny({ chunkBytes: 4096, maxLineBytes: 40 }));
    expect(oneChunk.problems.map((problem) => problem.line)).toEqual([2]);
    expect(oneChunk.records).toHaveLength(2);
  });

  it("stops at the byte window on a line boundary, and a read from there continues where it stopped", () => {
    const content = Array.from({ length: 20 }, (_, index) => `{"n":${index}}\n`).join("");
    writeFileSync(path, content);
    const seen: number[] = [];
    let from = { offset: 0, line: 0 };
    let reads = 0;
    for (;;) {
      const read = readJsonLines(path, from, tiny({ chunkBytes: 16, maxBytes: 30 }));
      reads += 1;
      seen.push(...read.records.map((record) => (record.value as { n: number }).n));
      expect(read.records.length).toBeLessThanOrEqual(4);
      from = { offset: read.endOffset, line: read.endLine };
      if (!read.more) break;
    }
    expect(seen).toEqual(Array.from({ length: 20 }, (_, index) => index));
    expect(reads).toBeGreaterThan(4);
    expect(from.offset).toBe(Buffer.byteLength(content));
    expect(from.line).toBe(20);
  });

  it("keeps the bytes before where it stopped whenever it still holds them, and never wrong ones", () => {
    const lines = Array.from({ length: 40 }, (_, index) => `{"n":${index},"t":"${"ü".repeat(index % 7)}"}`);
    const long = `{"t":"${"x".repeat(300)}"}`;
    writeFileSync(path, `${lines.slice(0, 20).join("\n")}\n${long}\n${lines.slice(20).join("\n")}\n{"torn":`);
    const bytes = readFileSync(path);
    const truth = (read: JsonLinesRead) =>
      tailHashOf(bytes.subarray(Math.max(0, read.endOffset - TAIL_BYTES), read.endOffset));
    let hashed = 0;
    for (const chunkBytes of [7, 64, 300, 1 << 20])
      for (const maxLineBytes of [100, 1 << 20])
        for (const maxBytes of [90, 1000, Number.POSITIVE_INFINITY]) {
          let from = { offset: 0, line: 0 };
          for (;;) {
            const read = readJsonLines(path, from, tiny({ chunkBytes, maxLineBytes, maxBytes }));
            if (read.tail !== undefined) {
              expect(tailHashOf(read.tail)).toBe(truth(read));
              hashed += 1;
            }
            from = { offset: read.endOffset, line: read.endLine };
            if (!read.more) break;
          }
        }
    // A whole read in one chunk always has it.
    expect(tailHashOf(readJsonLines(path).tail!)).toBe(truth(readJsonLines(path)));
    expect(hashed).toBeGreaterThan(10);
    // Nothing new since the offset: the bytes before it were not read, so no hash is claimed.
    const end = readJsonLines(path);
    expect(readJsonLines(path, { offset: end.endOffset, line: end.endLine }).tail).toBeUndefined();
  });
});
