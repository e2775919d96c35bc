import type { ReviewRepo } from "../store/contracts/reviews.js";
import { byScoreDesc, type Candidate } from "./candidate.js";

/** Candidates read for open flags: past the top k, so a newer memory just below the cut is seen. */
const WINDOW = 20;

/**
 * An open review flag says two memories are about one subject and which was said later, until a person
 * decides: when both come back, the newer takes the better of the two places (their scores change
 * hands, nothing else moves), so the older, marked "may be out of date", never ranks above the memory
 * that may replace it. Scores change in place; the order of the array is left to the caller.
 */
export function newerAboveDoubted(reviews: Pick<ReviewRepo, "doubtsAbout">, candidates: Candidate[], k: number): void {
  const head = [...candidates].sort(byScoreDesc).slice(0, Math.max(k, WINDOW));
  const byId = new Map(head.map((c) => [c.id, c]));
  for (const [id, doubt] of reviews.doubtsAbout(head.map((c) => c.id))) {
    const older = byId.get(id);
    const newer = byId.get(doubt.newer);
    if (!older || !newer || newer.score >= older.score) continue;
    [newer.score, older.score] = [older.score, newer.score];
    newer.sources.add("recency");
  }
}
