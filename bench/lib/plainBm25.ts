import BetterSqlite3 from "better-sqlite3";
import { isContentWord, words } from "../../src/text/tokenize.js";

/**
 * The baseline: one FTS5 table (porter unicode61), the question's non-stop words joined with OR,
 * `ORDER BY bm25 LIMIT k`. Nothing else: no vectors, no calibration, no context.
 */
export class PlainBm25 {
  private readonly db = new BetterSqlite3(":memory:");

  constructor() {
    this.db.exec(
      "CREATE VIRTUAL TABLE docs USING fts5(scope UNINDEXED, ref UNINDEXED, body, tokenize='porter unicode61')",
    );
  }

  add(rows: { scope: string; ref: string; body: string }[]): void {
    const insert = this.db.prepare("INSERT INTO docs (scope, ref, body) VALUES (?, ?, ?)");
    this.db.transaction(() => {
      for (const row of rows) insert.run(row.scope, row.ref, row.body);
    })();
  }

  search(scope: string, question: string, k: number): string[] {
    return this.searchScored([scope], question, k).map((r) => r.ref);
  }

  /** The hits in any of `scopes`, best first, with their BM25 score (higher is better, unbounded). */
  searchScored(scopes: readonly string[], question: string, k: number): { ref: string; score: number }[] {
    const terms = [...new Set(words(question).filter(isContentWord))].map((w) => `"${w.replace(/"/g, '""')}"`);
    if (terms.length === 0 || scopes.length === 0) return [];
    const marks = scopes.map(() => "?").join(", ");
    return this.db
      .prepare(
        `SELECT ref, -bm25(docs) AS score FROM docs WHERE docs MATCH ? AND scope IN (${marks}) ORDER BY bm25(docs) LIMIT ?`,
      )
      .all(terms.join(" OR "), ...scopes, k) as { ref: string; score: number }[];
  }

  close(): void {
    this.db.close();
  }
}
