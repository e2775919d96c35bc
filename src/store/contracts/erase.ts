/** Hard deletion of memories the user wants gone: whole scopes (`cairn memory clear`) or what excluded sessions taught. */
export interface EraseRepo {
  /** Deletes every memory of the scopes and what hangs off it; returns how many memories. Call inside a write transaction. */
  scopes(scopes: readonly string[] | "all"): number;
  /**
   * Deletes every memory learned from these sessions and what hangs off it, review flags about them
   * included. Returns how many, and the memories of other sessions they had replaced (still
   * tombstoned: the caller decides whether they come back). Call inside a write transaction.
   */
  sessions(sessionIds: readonly string[]): { erased: number; replaced: number[] };
}
