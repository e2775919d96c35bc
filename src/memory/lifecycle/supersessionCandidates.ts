import type { Storage } from "../../store/storage.js";
import { SAYS_CHANGE } from "../../text/saysChange.js";
import { subjectKeys } from "../../text/subjectNames.js";
import { isContentWord, words } from "../../text/tokenize.js";
import type { MemoryRecord } from "../types.js";
import { analysed } from "./analysedStatement.js";
import type { BatchSubjects } from "./batchSubjects.js";
import { swappedFromQuery } from "./swapCandidates.js";

/** Memories that share an entity with the new one: enough for the siblings of any entity but a hub. */
const ENTITY_LIMIT = 50;
/** Best keyword matches of the whole text. */
const KEYWORD_LIMIT = 20;
/** Matches of a thing a change statement names obsolete: every memory still presenting it should be seen. */
const OBSOLETE_LIMIT = 50;
/** Memories sharing a subject key, newest first: the same named thing in the same kind of statement. */
export const SUBJECT_LIMIT = 100;

/**
 * Words of a text a keyword query uses: a statement names its subject early, and a long memory's
 * every word would make each write's query as costly as a recall over the whole store.
 */
const QUERY_WORDS = 16;

/**
 * Postings a keyword query of the subject test reads at most: its words are taken rarest first while
 * the memories holding them stay within this many. BM25 ranks every memory that holds any word of a
 * query, so a query over the words half the store holds ("service", "port") cost as much as the
 * store; the rare words (the name, the value, the path) carry the ranking anyway, and a subject whose
 * every word is that common is still found through its entities. The cost of one memory's check
 * then grows with the candidates it reads, not with the store.
 */
export const POSTING_BUDGET = 2_000;

/**
 * How many live memories hold each word, counted up to just past the budget, kept for one revise run:
 * a batch of memories on the same subjects asks for the same words again and again. A count can be a
 * little stale within the run (a supersession takes a memory out); it only chooses which words query.
 */
export class WordCounts {
  private readonly counts = new Map<string, number>();

  constructor(private readonly storage: Storage) {}

  of(word: string): number {
    let count = this.counts.get(word);
    if (count === undefined) {
      count = this.storage.search.countHoldingUpTo(word, POSTING_BUDGET + 1);
      this.counts.set(word, count);
    }
    return count;
  }
}

function quote(word: string): string {
  return `"${word.replace(/"/g, '""')}"`;
}

/**
 * An FTS OR-query over the first content words of a text, rarest first within the posting budget
 * ("" when it has none, or when even its rarest word is in more memories than the budget).
 */
function orQuery(text: string, counts: WordCounts): string {
  const query = [...new Set(words(text).filter(isContentWord))].slice(0, QUERY_WORDS);
  const rarest = query.map((word) => ({ word, count: counts.of(word) })).sort((a, b) => a.count - b.count);
  const chosen: string[] = [];
  let postings = 0;
  for (const { word, count } of rarest) {
    if (postings + count > POSTING_BUDGET) break;
    postings += count;
    chosen.push(word);
  }
  return chosen.map(quote).join(" OR ");
}

/**
 * The live memories of the same scope that a memory may replace or be replaced by. A memory about a
 * code-like name (src/text/subjectNames.ts) reads those indexed under one of its subject keys: the
 * same name in the same kind of statement, or with a tool of the same kind (migration 019), whatever
 * the size of the store; two things with two names are never one fact, so nothing else is read for
 * it but the memories naming a thing it calls obsolete. A memory that names nothing code-like reads
 * those sharing an entity with it (the inline linker's mentions), its best keyword matches, every
 * memory naming a thing it calls obsolete, and when it says it is a change, those naming another tool
 * of a kind it names (`swappedFromQuery`). Read without counting usage: a write path looking is not a
 * recall hit. `counts` is shared by the memories of one revise run. `known` holds the rows read for
 * the memories before this one in a batch that no other writer can change (one write transaction):
 * memories on a few subjects read the same candidates again and again, and only the rows not read yet
 * are fetched. A row it holds may have been replaced since within the batch; the caller skips those.
 * `subjects` answers the subject-key lookup from what was read for the whole batch at once.
 */
export function supersessionCandidates(
  storage: Storage,
  memory: MemoryRecord,
  counts: WordCounts = new WordCounts(storage),
  known?: Map<number, MemoryRecord>,
  subjects?: BatchSubjects,
): MemoryRecord[] {
  const scopes = [memory.scope];
  const ids = new Set<number>();
  const keys = subjectKeys(memory.content);
  if (keys.length > 0) {
    const sharing =
      subjects?.of(memory.scope, keys) ?? storage.memories.sharingSubject(memory.scope, keys, SUBJECT_LIMIT);
    for (const id of sharing) ids.add(id);
    // A memory that says it is a change may say what it changed in words other than its names
    // ("tile-renderer was upgraded to Ruby 3.3" against "the tile renderer runs Ruby 3.1 in its image"):
    // its best keyword matches are read too, within the same posting budget.
    const { changes } = analysed(memory.content);
    const namesWhatItLeft = changes.some((change) => change.kind === "obsolete");
    if ((SAYS_CHANGE.test(memory.content) || changes.length > 0) && !namesWhatItLeft) {
      const match = orQuery(memory.content, counts);
      if (match !== "")
        for (const hit of storage.search.keyword({ match, scopes, limit: KEYWORD_LIMIT })) ids.add(hit.id);
    }
  } else {
    const entities = storage.graph.entitiesOf([memory.id]);
    for (const id of storage.graph.memoriesMentioning(entities, scopes, ENTITY_LIMIT)) ids.add(id);
    const match = orQuery(memory.content, counts);
    if (match !== "")
      for (const hit of storage.search.keyword({ match, scopes, limit: KEYWORD_LIMIT })) ids.add(hit.id);
    const swappedFrom = swappedFromQuery(memory.content);
    if (swappedFrom !== "")
      for (const hit of storage.search.keyword({ match: swappedFrom, scopes, limit: OBSOLETE_LIMIT })) ids.add(hit.id);
  }
  for (const statement of analysed(memory.content).changes) {
    // "billing-api is now ...": the thing reassigned is the name its keys already read.
    if (keys.length > 0 && statement.kind !== "obsolete") continue;
    const named = orQuery(statement.kind === "obsolete" ? statement.obsolete : statement.subject, counts);
    if (named === "") continue;
    for (const hit of storage.search.keyword({ match: named, scopes, limit: OBSOLETE_LIMIT })) ids.add(hit.id);
  }
  ids.delete(memory.id);
  if (!known) return storage.memories.getLive([...ids], { scopes });
  const missing = [...ids].filter((id) => !known.has(id));
  for (const row of storage.memories.getLive(missing, { scopes })) known.set(row.id, row);
  return [...ids].flatMap((id) => known.get(id) ?? []);
}
