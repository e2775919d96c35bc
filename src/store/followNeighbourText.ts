import { errorMessage } from "../util/errors.js";
import type { Storage } from "./storage.js";
import { storeFaultOf } from "./storeFault.js";

/**
 * Makes the index hold the session neighbours' text exactly when the recall profile searches it
 * (`recall.contextIndex`; SearchRepository.indexNeighbourText), on opening the store. A store that
 * cannot be written now (full disk, read only, locked) keeps its index, and recall stays right: the
 * columns' weights follow the profile. Returns the line saying so; the next opening tries again. A
 * damaged store is reported as it is everywhere else.
 */
export function followNeighbourText(storage: Storage, contextIndex: { before: number; after: number }): string | null {
  try {
    storage.search.indexNeighbourText(contextIndex.before > 0 || contextIndex.after > 0);
    return null;
  } catch (error) {
    if (storeFaultOf(error) === "damaged") throw error;
    return `cairn: the search index was not changed to the recall profile's contextual indexing (${errorMessage(error)}); the next start tries again`;
  }
}
