import { describe, expect, it } from "vitest";
import { buildFtsQuery } from "../../src/recall/ftsQuery.js";
import { analyzeQuery } from "../../src/recall/queryAnalyzer.js";
import { respellings } from "../../src/recall/vocabularyQuery.js";

const matches = (query: string) => respellings(analyzeQuery(query)).map((r) => buildFtsQuery(r.query, r.alternatives));

describe("respellings of a query", () => {
  it("is the query as written alone when the table knows none of its words", () => {
    expect(matches("how do I run the tests?").map((q) => q.match)).toEqual(['"run" OR "tests"']);
  });

  it("adds one respelling per known word, that word in its other forms", () => {
    const respelled = matches("where is the e2e config?")[1];
    expect(matches("where is the e2e config?").map((q) => q.match)).toEqual([
      '"e2e" OR "config"',
      '"config" OR "end to end"',
      '"e2e" OR "configuration" OR "cfg"',
    ]);
    // The calibration counts a term searched in several forms once, at its best form.
    expect(respelled?.weightedTerms).toEqual([
      { term: "config", weight: 1 },
      { term: "end to end", weight: 1 },
    ]);
  });

  it("respells a multi-word form without its words", () => {
    expect(matches("how are end-to-end tests run?").map((q) => q.match)).toEqual([
      '"end" OR "tests" OR "run"',
      '"tests" OR "run" OR "e2e"',
    ]);
    const auth = matches("which auth middleware?")[1];
    expect(auth?.match).toBe(
      '"middleware" OR "authentication" OR "authn" OR "authorization" OR "authorisation" OR "authz"',
    );
    expect(auth?.weightedTerms.at(-1)).toEqual({
      term: "authentication authn authorization authorisation authz",
      weight: 1,
    });
  });
});
