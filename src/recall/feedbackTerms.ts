import { contentStems } from "../text/tokenize.js";
import { idf } from "./calibrate.js";

/**
 * Pseudo-relevance feedback: the words that the best keyword hits share, weighted by how often they
 * occur there (sublinear) and how rare they are overall (IDF). A question names the topic with one
 * word; the memories that answer it use its neighbours ("camping" -> tent, campfire, hike).
 */
export function feedbackTerms(options: {
  topContents: string[];
  exclude: Set<string>;
  documentFrequency: (stem: string) => number;
  corpusSize: number;
  limit: number;
}): string[] {
  const weights = new Map<string, number>();
  for (const content of options.topContents) {
    const counts = new Map<string, number>();
    for (const s of contentStems(content)) counts.set(s, (counts.get(s) ?? 0) + 1);
    for (const [s, tf] of counts) {
      if (options.exclude.has(s) || /\d/.test(s) || s.length < 3) continue;
      weights.set(s, (weights.get(s) ?? 0) + 1 + Math.log(tf));
    }
  }
  return [...weights.entries()]
    .filter(([, w]) => w > 1)
    .map(([s, w]) => ({ s, score: w * idf(options.corpusSize, Math.max(1, options.documentFrequency(s))) }))
    .sort((a, b) => b.score - a.score)
    .slice(0, options.limit)
    .map((t) => t.s);
}
