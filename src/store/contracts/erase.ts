/** Hard deletion of whole scopes (`cairn memory clear`). */
export interface EraseRepo {
  /** Deletes every memory of the scopes and what hangs off it; returns how many memories. Call inside a write transaction. */
  scopes(scopes: readonly string[] | "all"): number;
}
