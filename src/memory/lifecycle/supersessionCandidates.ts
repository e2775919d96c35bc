import type { Storage } from "../../store/storage.js";
import { isContentWord, words } from "../../text/tokenize.js";
import type { MemoryRecord } from "../types.js";
import { swappedFromQuery } from "./swapCandidates.js";
import { changeStatements } from "./changeStatements.js";

/** Memories that share an entity with the new one: enough for the siblings of any entity but a hub. */
const ENTITY_LIMIT = 50;
/** Best keyword matches of the whole text. */
const KEYWORD_LIMIT = 20;
/** Matches of a thing a change statement names obsolete: every memory still presenting it should be seen. */
const OBSOLETE_LIMIT = 50;

function quote(word: string): string {
  return `"${word.replace(/"/g, '""')}"`;
}

/**
 * Words of a text a keyword query uses: a statement names its subject early, and a long memory's
 * every word would make each write's query as costly as a recall over the whole store.
 */
const QUERY_WORDS = 16;

/** An FTS OR-query over the first content words of a text ("" when it has none). */
function orQuery(text: string): string {
  return [...new Set(words(text).filter(isContentWord))].slice(0, QUERY_WORDS).map(quote).join(" OR ");
}

/**
 * The live memories of the same scope that a memory may replace or be replaced by: those sharing an
 * entity with it (the inline linker's mentions: a memory about a sibling attribute of the same entity
 * may share few words), its best keyword matches, every memory naming a thing it calls obsolete, and
 * when it says it is a change, those naming another tool of a kind it names (`swappedFromQuery`).
 * Read without counting usage: a write path looking is not a recall hit.
 */
export function supersessionCandidates(storage: Storage, memory: MemoryRecord): MemoryRecord[] {
  const scopes = [memory.scope];
  const ids = new Set<number>();
  const entities = storage.graph.entitiesOf([memory.id]);
  for (const id of storage.graph.memoriesMentioning(entities, scopes, ENTITY_LIMIT)) ids.add(id);
  const match = orQuery(memory.content);
  if (match !== "") for (const hit of storage.search.keyword({ match, scopes, limit: KEYWORD_LIMIT })) ids.add(hit.id);
  for (const statement of changeStatements(memory.content)) {
    const named = orQuery(statement.kind === "obsolete" ? statement.obsolete : statement.subject);
    if (named === "") continue;
    for (const hit of storage.search.keyword({ match: named, scopes, limit: OBSOLETE_LIMIT })) ids.add(hit.id);
  }
  const swappedFrom = swappedFromQuery(memory.content);
  if (swappedFrom !== "")
    for (const hit of storage.search.keyword({ match: swappedFrom, scopes, limit: OBSOLETE_LIMIT })) ids.add(hit.id);
  ids.delete(memory.id);
  return storage.memories.getLive([...ids], { scopes });
}
