/** What the newer of two memories of one scope does to the older: replaces it, or asks a person. */
export interface Judgement {
  verdict: "supersede" | "review";
  /** Which detector fired and on what, for the history and the review list. */
  reason: string;
}
