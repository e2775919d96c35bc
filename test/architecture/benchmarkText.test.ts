import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../helpers/tempDir.js";
import { benchmarkTexts, indexRuns, quotesIn } from "./benchmarkQuotes.js";

const repoRoot = join(import.meta.dirname, "..", "..");
const shared = resolve(repoRoot, "../shared");
const present = existsSync(join(shared, "bench"));
if (!present) console.warn(`benchmark-text check skipped: ${shared} (../shared, the benchmark data) is absent`);

/**
 * No sentence of the benchmark data in the product (issue 35): a rule earns its place by a reason that
 * holds for users' data, so src/ (code, comments, prompts, its .md files) shares no run of five words
 * with ../shared/bench or with what users and agents wrote in ../shared/fixtures/transcripts. A comment
 * says what a rule does in general words, with an invented example where one helps.
 */
describe("benchmark text stays out of src/", () => {
  it.skipIf(!present)("src/ holds no run of five words of the benchmark data or the real transcripts", () => {
    const index = indexRuns(benchmarkTexts(shared));
    const found = quotesIn(join(repoRoot, "src"), index).map(
      (quote) => `src/${quote.file}:${quote.line}: "${quote.words}" (../shared/${quote.source})`,
    );
    expect(found).toEqual([]);
  });

  it("finds a planted quote across punctuation, case and line breaks, and reports it whole with its line", () => {
    const data = tempDir();
    mkdirSync(join(data, "bench", "set"), { recursive: true });
    mkdirSync(join(data, "fixtures", "transcripts", "agent"), { recursive: true });
    writeFileSync(
      join(data, "bench", "set", "corpus.jsonl"),
      [
        { id: "m1", content: "The billing worker retries failed invoices three times, then pages on-call." },
        { id: "m2", content: "Show me the error and how to fix it." },
        { id: "m3", content: "No such file or directory" },
      ]
        .map((record) => JSON.stringify(record))
        .join("\n"),
    );
    writeFileSync(
      join(data, "fixtures", "transcripts", "agent", "session.jsonl"),
      [
        { type: "user", message: { role: "user", content: "please rename the orbit widget before friday's demo" } },
        { type: "assistant", message: { role: "assistant", content: [{ type: "text", text: "Renamed it." }] } },
        { role: "tool", content: "purple lantern yields seven quiet harbor files" },
      ]
        .map((record) => JSON.stringify(record))
        .join("\n"),
    );
    const src = tempDir();
    writeFileSync(
      join(src, "rule.ts"),
      [
        "export const x = 1;",
        '// As in "the Billing worker retries failed',
        '// invoices THREE times": a retry count.',
        "// Rename the orbit widget before Friday's demo.",
        "// purple lantern yields seven quiet harbor files (a tool's output, not prose)",
        "// And how to fix it (generic English).",
        "// cp: x: No such file or directory (a program's message).",
      ].join("\n"),
    );

    const quotes = quotesIn(src, indexRuns(benchmarkTexts(data)));

    expect(quotes).toEqual([
      {
        file: "rule.ts",
        line: 2,
        words: "the billing worker retries failed invoices three times",
        source: "bench/set/corpus.jsonl",
      },
      {
        file: "rule.ts",
        line: 4,
        words: "rename the orbit widget before fridays demo",
        source: "fixtures/transcripts/agent/session.jsonl",
      },
    ]);
  });

  it("reads the data's prose fields, not only a top-level string: LoCoMo's nested turns", () => {
    const data = tempDir();
    mkdirSync(join(data, "bench", "conv"), { recursive: true });
    mkdirSync(join(data, "fixtures", "transcripts"), { recursive: true });
    writeFileSync(
      join(data, "bench", "conv", "dialogues.json"),
      JSON.stringify([
        { conversation: { session_1: [{ speaker: "A", text: "My cousin builds canoes out of cedar strips." }] } },
      ]),
    );
    const src = tempDir();
    writeFileSync(join(src, "notes.md"), "A person who builds canoes out of cedar is a hobby.\n");
    expect(quotesIn(src, indexRuns(benchmarkTexts(data))).map((quote) => quote.words)).toEqual([
      "builds canoes out of cedar",
    ]);
  });
});
