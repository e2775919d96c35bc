/** What a person decides about a review flag: keep both, let the newer side replace the flagged memory, or forget it. */
export const reviewActions = ["keep", "supersede", "forget"] as const;
export type ReviewAction = (typeof reviewActions)[number];
