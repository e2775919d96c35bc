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
    const terms = [...new Set(words(question).filter(isContentWord))].map((w) => `"${w.replace(/"/g, '""')}"`);
    if (terms.length === 0) return [];
    return (
      this.db
        .prepare("SELECT ref FROM docs WHERE docs MATCH ? AND scope = ? ORDER BY bm25(docs) LIMIT ?")
        .all(terms.join(" OR "), scope, k) as { ref: string }[]
    ).map((r) => r.ref);
  }

  close(): void {
    this.db.close();
  }
}
