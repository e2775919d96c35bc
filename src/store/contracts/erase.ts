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
  /**
   * `cairn memory purge --text`: erases every memory holding the text in any state, hints and entities
   * naming it, and replaces it wherever else it stands in the store. Returns how many memories, the
   * memories they had replaced, their scopes, and how many other rows were rewritten. Call inside a
   * write transaction.
   */
  text(text: string): { erased: number; replaced: number[]; scopes: string[]; rewritten: number };
  /** `cairn memory purge <id>`: erases one memory in any state; null when there is none. Call inside a write transaction. */
  memory(id: number): { content: string; scope: string; replaced: number[] } | null;
}
