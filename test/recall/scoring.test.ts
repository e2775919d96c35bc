import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { hashedEmbedding } from "../../src/providers/embeddings/hashedEmbedding.js";
import { calibrateBm25, idealBm25, idf, saturate } from "../../src/recall/calibrate.js";
import { buildFtsQuery } from "../../src/recall/ftsQuery.js";
import { capHintOnly, fuseScores } from "../../src/recall/fuse.js";
import { withinPostingBudget } from "../../src/recall/postingBudget.js";
import { analyzeQuery } from "../../src/recall/queryAnalyzer.js";
import { dot } from "../../src/store/vectorCodec.js";
import { stem } from "../../src/text/stem.js";

describe("query handling", () => {
  it("stems like SQLite's porter tokenizer", () => {
    // The IDF lookups in memories_fts_vocab find a query word only when stem() gives the very token
    // the index stores, so SQLite itself is asked: each word is one row of an FTS5 table with the
    // store's tokenizer, and an fts5vocab 'instance' table lists the token of each row
    // (https://www.sqlite.org/fts5.html, "The fts5vocab Virtual Table Module").
    const words = [
      ...["painting", "painted", "paints", "researching", "relational", "happiness", "agreed", "caresses"],
      ...["ponies", "cats", "feed", "plastered", "motoring", "sing", "conflated", "troubled", "sized"],
      ...["hopping", "tanned", "falling", "hissing", "fizzed", "failing", "filing", "happy", "sky"],
      ...["conditional", "rational", "valenci", "hesitanci", "digitizer", "conformabli", "radicalli"],
      ...["differentli", "vileli", "analogousli", "vietnamization", "predication", "operator", "feudalism"],
      ...["decisiveness", "hopefulness", "callousness", "formaliti", "sensitiviti", "sensibiliti"],
      ...["triplicate", "formative", "formalize", "electriciti", "electrical", "hopeful", "goodness"],
      ...["revival", "allowance", "inference", "airliner", "gyroscopic", "adjustable", "defensible"],
      ...["irritant", "replacement", "adjustment", "dependent", "adoption", "homologou", "communism"],
      ...["activate", "angulariti", "homologous", "effective", "bowdlerize", "probate", "rate", "cease"],
      ...["controll", "roll", "generalizations", "oscillators", "dinosaurs", "meditation", "camping"],
      ...["activities", "swimming", "volunteering", "mentorship", "adoption", "counseling", "pottery"],
      // Digits are consonants to SQLite's stemmer: "e2e" is indexed as "e2".
      ...["e2e", "k8s", "a11y", "i18n", "utf8", "sha256", "python3", "oauth2", "mp4s", "404s", "8080"],
    ];
    const db = new Database(":memory:");
    db.exec(
      "CREATE VIRTUAL TABLE t USING fts5(x, tokenize='porter unicode61 remove_diacritics 2');" +
        "CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance');",
    );
    const insert = db.prepare("INSERT INTO t(rowid, x) VALUES (?, ?)");
    for (const [i, word] of words.entries()) insert.run(i + 1, word);
    const tokens = new Map(
      (db.prepare("SELECT doc, term FROM v").all() as { doc: number; term: string }[]).map((r) => [r.doc, r.term]),
    );
    db.close();
    expect(words.map(stem)).toEqual(words.map((_, i) => tokens.get(i + 1)));
  });

  it("drops stop words and possessives, keeps phrases", () => {
    const q = analyzeQuery('What did Caroline\'s "support group" say about Rust?');
    expect(q.terms).toEqual(["caroline", "support", "group", "say", "rust"]);
    expect(q.phrases).toEqual(["support group"]);
  });

  it("finds the nouns a question asks for a kind of", () => {
    expect(analyzeQuery("What kind of art does Caroline make?").kindOf).toEqual(["art"]);
    expect(analyzeQuery("What types of a dance, and what sort of the Music, does she like?").kindOf).toEqual([
      "dance",
      "music",
    ]);
    expect(analyzeQuery("Which kinds of books has he read?").kindOf).toEqual(["books"]);
    expect(analyzeQuery("What art does Caroline make?").kindOf).toEqual([]);
  });

  it("builds an OR query of the words and the quoted phrases", () => {
    const fts = buildFtsQuery(analyzeQuery('when did Jon open the "pottery studio"'));
    expect(fts.match).toBe('"jon" OR "open" OR "pottery" OR "studio" OR "pottery studio"');
    expect(fts.weightedTerms).toEqual([
      { term: "jon", weight: 1 },
      { term: "open", weight: 1 },
      { term: "pottery", weight: 1 },
      { term: "studio", weight: 1 },
      { term: "pottery studio", weight: 1 },
    ]);
  });

  it("keeps the rarest words within the posting budget", () => {
    const q = analyzeQuery("common rare medium");
    const df = new Map([
      ["common", 9000],
      ["rare", 10],
      ["medium", 500],
    ]);
    expect(withinPostingBudget(q, df, 1000).terms).toEqual(["rare", "medium"]);
    expect(withinPostingBudget(q, df, 1).terms).toEqual(["rare"]);
    expect(withinPostingBudget(q, df, 100_000).terms).toEqual(["common", "rare", "medium"]);
  });
});

describe("calibrated scoring", () => {
  it("scores BM25 against the ideal, so a weak best hit stays weak", () => {
    // Keys are index stems; "build" and "team" stem to themselves.
    const df = new Map([
      ["build", 5],
      ["team", 400],
    ]);
    const ideal = idealBm25(
      [
        { term: "build", weight: 1 },
        { term: "team", weight: 1 },
      ],
      df,
      1000,
    );
    expect(ideal).toBeCloseTo(idf(1000, 5) + idf(1000, 400), 6);
    // A hit on the common word only: tiny even if it is the best hit of the query.
    expect(calibrateBm25(-idf(1000, 400), ideal)).toBeLessThan(0.1);
    // Matching everything once at average length is near the top; more still ranks higher, never past 1.
    expect(calibrateBm25(-ideal, ideal)).toBeCloseTo(saturate(1), 9);
    expect(calibrateBm25(-ideal * 3, ideal)).toBeGreaterThan(calibrateBm25(-ideal, ideal));
    expect(calibrateBm25(-ideal * 3, ideal)).toBeLessThan(1);
    expect(calibrateBm25(-1, 0)).toBe(0);
  });

  it("saturates above the knee instead of clamping, so strong hits keep their order", () => {
    expect(saturate(0.5)).toBe(0.5);
    expect(saturate(0.8)).toBe(0.8);
    expect(saturate(-0.2)).toBe(0);
    // The exponential approach over a span of 0.6: 63% of the room left at 1.4x the ideal.
    expect(saturate(1.4)).toBeCloseTo(0.8 + 0.2 * (1 - Math.exp(-1)), 9);
    expect(saturate(1)).toBeCloseTo(0.8 + 0.2 * (1 - Math.exp(-0.2 / 0.6)), 9);
    // Strong hits stay apart: twice the ideal is still clearly below three times it.
    expect(saturate(3) - saturate(2)).toBeGreaterThan(0.01);
    expect(saturate(1.2)).toBeGreaterThan(saturate(1.1));
    expect(saturate(50)).toBeLessThanOrEqual(1);
  });

  it("fuses alpha * vector + (1 - alpha) * max(keyword, hint)", () => {
    expect(fuseScores({ keyword: 0.8, vector: 0.4, hint: 0, alpha: 0.25 })).toBeCloseTo(0.25 * 0.4 + 0.75 * 0.8);
    expect(fuseScores({ keyword: 0.2, vector: 0, hint: 0.6, alpha: 0.5 })).toBeCloseTo(0.3);
    expect(fuseScores({ keyword: 0, vector: -0.3, hint: 0, alpha: 1 })).toBe(0);
    expect(capHintOnly(0.9, { keyword: 0, hint: 0.9, cap: 0.75 })).toBe(0.75);
    expect(capHintOnly(0.9, { keyword: 0.1, hint: 0.9, cap: 0.75 })).toBe(0.9);
  });

  it("hashed embeddings are deterministic unit vectors whose cosine follows overlap", () => {
    const a = hashedEmbedding("Melanie painted a lake sunrise", 256);
    expect(hashedEmbedding("Melanie painted a lake sunrise", 256)).toEqual(a);
    expect(dot(a, a)).toBeCloseTo(1, 5);
    const near = hashedEmbedding("a painting of the sunrise over a lake", 256);
    const far = hashedEmbedding("the compiler rejects implicit any", 256);
    expect(dot(a, near)).toBeGreaterThan(dot(a, far) + 0.2);
    // Character n-grams give spelling variants a little similarity where unigrams give none.
    const typo = dot(hashedEmbedding("pride festival", 256), hashedEmbedding("pride fesetival", 256));
    expect(typo).toBeGreaterThan(dot(hashedEmbedding("pride festival", 256), hashedEmbedding("pride parade", 256)));
  });
});
