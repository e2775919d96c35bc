import type { RecallConfig } from "../config/recallConfig.js";
import { pluralCategories, shippedCategoryBreadth } from "../text/lexicon/concepts.js";

/**
 * The concept-column clause of the category words a query asks for instances of: its plural category
 * words ("what activities ...") and the nouns it asks for a kind of ("what kind of art ...", when
 * they are categories and still among its terms), each repeated `categoryRepeat` times; "" when the
 * query has none.
 */
export function categoryMatch(terms: string[], concept: RecallConfig["conceptIndex"], kindOf: string[] = []): string {
  const breadth = shippedCategoryBreadth(concept.depth);
  const plural = pluralCategories(terms, breadth, concept.categoryMinBreadth).map((p) => p.word);
  const kinds = kindOf.filter(
    (w) => terms.includes(w) && !plural.includes(w) && (breadth.get(w) ?? 0) >= concept.categoryMinBreadth,
  );
  return [...plural, ...kinds]
    .flatMap((word) => Array.from({ length: concept.categoryRepeat }, () => `"${word.replace(/"/g, '""')}"`))
    .join(" OR ");
}
