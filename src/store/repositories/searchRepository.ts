import type { Database } from "better-sqlite3";
import { guardText } from "../../redact/guard.js";
import { cached } from "../statements.js";
import { withWriteTx } from "../tx.js";

export interface KeywordHit {
  id: number;
  /** FTS5 bm25(): negative, more negative is better. */
  raw: number;
}

/** The scope token indexed next to each memory's text: `s` + the scope's UTF-8 bytes in hex (migration 003). */
export function scopeTag(scope: string): string {
  return `s${Buffer.from(scope, "utf8").toString("hex").toUpperCase()}`;
}

/**
 * One keyword search. A column of weight 0 neither ranks nor matches; every weight defaults to 0 and
 * every extra clause to none.
 */
export interface KeywordSearch {
  /** The MATCH expression over the memory's text (built by src/recall/ftsQuery.ts); "" for none. */
  match: string;
  scopes: string[] | "all";
  limit: number;
  /** Weights of the text of the items before and after each memory (contextual indexing). */
  context?: { before: number; after: number };
  /** Calendar tokens (src/text/temporalTerms.ts), searched in the `occurred` and `mentioned` columns only. */
  timeMatch?: string;
  /** Weights of the `occurred` and `mentioned` columns. */
  time?: { occurred: number; mentioned: number };
  /** Weight of the category words of each memory's nouns (concept indexing, migration 004). */
  concepts?: number;
  /** Category words searched in the concept column alone, on top of `match`. */
  conceptMatch?: string;
  /** Weight of the search terms written at extraction (migration 011); `match` is searched there too. */
  terms?: number;
}

/** Every column of memories_fts that holds words (the others hold calendar tokens and the scope tag). */
const TEXT_COLUMNS = ["body", "before", "after", "concepts", "terms"];

/** The text columns a search matches words in: a column of weight 0 neither ranks nor matches. */
function textColumns(search: Pick<KeywordSearch, "context" | "concepts" | "terms">): string[] {
  const context = search.context ?? { before: 0, after: 0 };
  return [
    "body",
    ...(context.before > 0 ? ["before"] : []),
    ...(context.after > 0 ? ["after"] : []),
    ...((search.concepts ?? 0) > 0 ? ["concepts"] : []),
    ...((search.terms ?? 0) > 0 ? ["terms"] : []),
  ];
}

/** Terms whose document frequency is kept between recalls at most; beyond that the memo starts over. */
const KEPT_FREQUENCIES = 100_000;

/** FTS5 queries over memories and hints. The MATCH expression is built by src/recall/ftsQuery.ts. */
export class SearchRepository {
  /** Document frequencies looked up while the index had the state `indexState` names. */
  private frequencies = new Map<string, number>();
  private indexState: string | undefined;
  private instancesReady = false;

  constructor(private readonly db: Database) {}

  /** Best BM25 matches among live memories of the scopes (the scope token is part of the MATCH). */
  keyword(search: KeywordSearch): KeywordHit[] {
    const { match, scopes, limit } = search;
    const time = search.time ?? { occurred: 0, mentioned: 0 };
    const concepts = search.concepts ?? 0;
    const termsWeight = search.terms ?? 0;
    const timeMatch = search.timeMatch ?? "";
    const conceptMatch = search.conceptMatch ?? "";
    const columns = textColumns(search);
    const timeColumns = [...(time.occurred > 0 ? ["occurred"] : []), ...(time.mentioned > 0 ? ["mentioned"] : [])];
    const clauses = match === "" ? [] : [`{${columns.join(" ")}} : (${match})`];
    if (timeMatch !== "" && timeColumns.length > 0) clauses.push(`{${timeColumns.join(" ")}} : (${timeMatch})`);
    if (conceptMatch !== "" && concepts > 0) clauses.push(`{concepts} : (${conceptMatch})`);
    if (clauses.length === 0) return [];
    const terms = clauses.length === 1 ? clauses[0]! : `(${clauses.join(" OR ")})`;
    const expr = scopes === "all" ? terms : `${terms} AND scope_tag : (${scopes.map(scopeTag).join(" OR ")})`;
    // scope_tag weighs 0: the scope token restricts, it never ranks.
    return cached(
      this.db,
      "SELECT rowid AS id, bm25(memories_fts, 1.0, ?, ?, ?, ?, ?, 0.0, ?) AS raw FROM memories_fts WHERE memories_fts MATCH ? ORDER BY raw LIMIT ?",
    ).all(
      search.context?.before ?? 0,
      search.context?.after ?? 0,
      time.occurred,
      time.mentioned,
      concepts,
      termsWeight,
      expr,
      limit,
    ) as KeywordHit[];
  }

  /** Hint matches, best per memory, restricted to live memories in the scopes. */
  hints(match: string, scopes: string[] | "all", limit: number): KeywordHit[] {
    const scoped = scopes !== "all";
    const params: unknown[] = [match, limit * 4];
    if (scoped) params.push(JSON.stringify(scopes));
    params.push(limit);
    // bm25() is only allowed in the FTS query itself, so rank there and group outside.
    return cached(
      this.db,
      `SELECT h.memory_id AS id, min(f.raw) AS raw FROM (
           SELECT rowid, bm25(memory_hints_fts) AS raw FROM memory_hints_fts WHERE memory_hints_fts MATCH ? ORDER BY raw LIMIT ?
         ) f JOIN memory_hints h ON h.id = f.rowid JOIN memories m ON m.id = h.memory_id
         WHERE m.deleted_at IS NULL ${scoped ? "AND m.scope IN (SELECT value FROM json_each(?))" : ""}
         GROUP BY h.memory_id ORDER BY raw LIMIT ?`,
    ).all(...params) as KeywordHit[];
  }

  /**
   * Documents containing each term (as the index stems it), for IDF. Each lookup reads the term's
   * whole posting list (about 0.1-0.4 ms for a common word at 10,000 memories, and the recency stage
   * asks for some 30 words), so the answers are kept while the index stays as it was: a process
   * that recalls again and again (`cairn serve`, the MCP server) looks each word up once per change.
   *
   * `columns`: count only the documents that hold the term in the text columns a keyword search
   * with these weights matches (textColumns), as FTS5's bm25() counts them for that search. Without it,
   * or when every text column is searched, a document counts when any column holds the term. A column
   * left out still holds text (the neighbours' text of contextual indexing, written by the store's
   * triggers whatever the profile): counted, it would make the query's words look common and the
   * calibration's ideal low, so that a weak match scored as a confident one.
   */
  documentFrequencies(
    terms: string[],
    columns?: Pick<KeywordSearch, "context" | "concepts" | "terms">,
  ): Map<string, number> {
    const out = new Map<string, number>();
    const known = this.unchangedFrequencies();
    const searched = columns ? textColumns(columns) : TEXT_COLUMNS;
    const every = searched.length === TEXT_COLUMNS.length;
    const statement = every
      ? cached(this.db, "SELECT doc FROM memories_fts_vocab WHERE term = ?")
      : this.instanceCount(searched);
    // The memo keys a restricted count by its columns: the same term has one count per column set.
    const prefix = every ? "" : `${searched.join(" ")}\u0000`;
    for (const term of terms) {
      let frequency = known?.get(prefix + term);
      if (frequency === undefined) {
        frequency = (statement.get(term) as { doc: number } | undefined)?.doc ?? 0;
        known?.set(prefix + term, frequency);
      }
      out.set(term, frequency);
    }
    return out;
  }

  /**
   * The statement counting the documents with a term in `columns`: FTS5's per-instance vocabulary
   * (term, document, column, offset), kept in this connection's temp schema, since it reads the
   * index as it is and needs no table of the store's own.
   */
  private instanceCount(columns: string[]): { get: (term: string) => unknown } {
    if (!this.instancesReady) {
      this.db.exec(
        "CREATE VIRTUAL TABLE IF NOT EXISTS temp.memories_fts_instances USING fts5vocab(main, memories_fts, 'instance')",
      );
      this.instancesReady = true;
    }
    const list = columns.map((c) => `'${c}'`).join(", ");
    return cached(
      this.db,
      `SELECT count(DISTINCT doc) AS doc FROM temp.memories_fts_instances WHERE term = ? AND col IN (${list})`,
    );
  }

  /**
   * The frequencies looked up since the index last changed, or undefined inside a transaction, whose
   * pending changes the index shows before they are committed. Two facts name the index's state:
   * `data_version`, which moves whenever another connection commits, and FTS5's structure record
   * (row 10 of `memories_fts_data`, its list of segments), which every committed change to the
   * index rewrites with a write counter that only grows, this connection's own changes included.
   */
  private unchangedFrequencies(): Map<string, number> | undefined {
    if (this.db.inTransaction) return undefined;
    const row = cached(
      this.db,
      "SELECT (SELECT data_version FROM pragma_data_version) AS version, (SELECT block FROM memories_fts_data WHERE id = 10) AS structure",
    ).get() as { version: number; structure: Buffer | null };
    const state = `${row.version}:${row.structure?.toString("hex") ?? ""}`;
    if (state !== this.indexState || this.frequencies.size >= KEPT_FREQUENCIES) {
      this.frequencies = new Map();
      this.indexState = state;
    }
    return this.frequencies;
  }

  /**
   * The terms (FTS5 phrases, as ftsQuery quotes them) that some live memory of the scopes contains in
   * its text: one existence probe per term, each stopping at the first row.
   */
  termsFoundIn(
    terms: string[],
    search: Pick<KeywordSearch, "context" | "concepts" | "terms"> & { scopes: string[] },
  ): Set<string> {
    const statement = cached(this.db, "SELECT 1 FROM memories_fts WHERE memories_fts MATCH ? LIMIT 1");
    const inScopes = `scope_tag : (${search.scopes.map(scopeTag).join(" OR ")})`;
    const columns = textColumns(search).join(" ");
    const found = new Set<string>();
    for (const term of terms) {
      const phrase = `"${term.replace(/"/g, '""')}"`;
      if (statement.get(`{${columns}} : ${phrase} AND ${inScopes}`)) found.add(term);
    }
    return found;
  }

  /**
   * How many live memories hold `word` in their text, counted up to `cap` (the count stops there): the
   * cost of a keyword query over the word, found without reading more of its postings than the cap.
   */
  countHoldingUpTo(word: string, cap: number): number {
    const row = cached(
      this.db,
      "SELECT count(*) AS n FROM (SELECT 1 FROM memories_fts WHERE memories_fts MATCH ? LIMIT ?)",
    ).get(`{body} : "${word.replace(/"/g, '""')}"`, cap) as { n: number };
    return row.n;
  }

  /**
   * Indexes each memory with its session neighbours' text (contextual indexing), or stops: the store's
   * triggers read meta `index.neighbour_text` (migration 018). When that changes, the memories with a
   * session position are indexed again, in one write transaction (an update of their session id that
   * changes nothing fires the triggers that index them). Returns whether anything changed. A column a
   * search leaves out still counts in FTS5's document length, so a profile that does not search the
   * neighbours' text must not index it either.
   */
  indexNeighbourText(on: boolean): boolean {
    const wanted = on ? "1" : "0";
    const current = cached(this.db, "SELECT value FROM meta WHERE key = 'index.neighbour_text'").get() as
      | { value: string }
      | undefined;
    if ((current?.value ?? "1") === wanted) return false;
    withWriteTx(this.db, () => {
      cached(
        this.db,
        "INSERT INTO meta (key, value) VALUES ('index.neighbour_text', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
      ).run(wanted);
      cached(
        this.db,
        "UPDATE memories SET session_id = session_id WHERE session_id IS NOT NULL AND item_from IS NOT NULL AND deleted_at IS NULL",
      ).run();
    });
    return true;
  }

  /** Rows in the memories' search index: one per live memory when the index is whole. */
  indexedRows(): number {
    return (cached(this.db, "SELECT count(*) AS n FROM memories_fts").get() as { n: number }).n;
  }

  /**
   * Brings the search index back to one row per live memory (the maintenance worker's repair): drops
   * rows of memories that are gone or forgotten, and re-indexes live memories that lost theirs by
   * touching them, so the same triggers that index every write build the row. At most `limit` of each
   * per call, in one short transaction; returns what it did.
   */
  repairIndex(limit: number): { removed: number; added: number } {
    return withWriteTx(this.db, () => {
      const removed = this.db
        .prepare(
          `DELETE FROM memories_fts WHERE rowid IN (SELECT f.rowid FROM memories_fts f
             WHERE NOT EXISTS (SELECT 1 FROM memories m WHERE m.id = f.rowid AND m.deleted_at IS NULL) LIMIT ?)`,
        )
        .run(limit).changes;
      const missing = this.db
        .prepare(
          `SELECT id FROM memories m WHERE m.deleted_at IS NULL
             AND NOT EXISTS (SELECT 1 FROM memories_fts f WHERE f.rowid = m.id) LIMIT ?`,
        )
        .all(limit) as Array<{ id: number }>;
      const touch = this.db.prepare("UPDATE memories SET content = content WHERE id = ?");
      for (const { id } of missing) touch.run(id);
      return { removed, added: missing.length };
    });
  }

  /** An upper bound of the indexed rows (ids only grow), cheap at any size; used only inside a log. */
  corpusSizeEstimate(): number {
    return (cached(this.db, "SELECT coalesce(max(id), 0) AS n FROM memories").get() as { n: number }).n;
  }

  addHints(memoryId: number, hints: string[], now: number): number {
    const statement = cached(
      this.db,
      "INSERT OR IGNORE INTO memory_hints (memory_id, hint, created_at) VALUES (?, ?, ?)",
    );
    let added = 0;
    for (const hint of hints) added += statement.run(memoryId, guardText(hint), now).changes;
    return added;
  }
}
