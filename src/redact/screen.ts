/**
 * The cheap pre-check: one case-insensitive pass over the text for every rule's keywords, so that a
 * rule runs only on text that contains one of them. Ordinary prose mentions few of the ~140
 * keywords, so most rules are skipped.
 */
export interface Screen<T> {
  /** The rules worth running on `text`, in their original order. */
  select(text: string): readonly T[];
}

interface Screened {
  /** Lowercase; absent means "always run". */
  keywords?: readonly string[] | undefined;
}

function escapeRegExp(literal: string): string {
  return literal.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
}

/**
 * After this many hits in a row that find no new keyword (a text repeating "token" thousands of
 * times), the search restarts without the keywords already found. Each restart removes at least
 * one keyword, so a text costs at most (keywords x this) regex steps plus one pass.
 */
const USELESS_HITS_BEFORE_NARROWING = 32;

export function createScreen<T extends Screened>(rules: readonly T[]): Screen<T> {
  // Longest first: the alternation then reports, at each position, the longest keyword there, and
  // every other keyword occurring at that position is one of its substrings.
  const keywords = [...new Set(rules.flatMap((rule) => rule.keywords ?? []))].sort((a, b) => b.length - a.length);
  for (const keyword of keywords) {
    if (keyword.length === 0 || keyword !== keyword.toLowerCase()) throw new Error(`bad keyword "${keyword}"`);
  }
  const implied = new Map(keywords.map((k) => [k, keywords.filter((other) => k.includes(other))]));
  const finders = new Map<string, RegExp>();
  const finderFor = (remaining: readonly string[]): RegExp => {
    const key = remaining.join("\u0000");
    let finder = finders.get(key);
    if (finder === undefined) {
      finder = new RegExp(remaining.map(escapeRegExp).join("|"), "gi");
      if (finders.size > 64) finders.clear();
      finders.set(key, finder);
    }
    return finder;
  };
  const always = rules.filter((rule) => rule.keywords === undefined);
  const firstFinder = finderFor(keywords);

  const found = (text: string): Set<string> => {
    const seen = new Set<string>();
    let finder = firstFinder;
    finder.lastIndex = 0;
    let useless = 0;
    for (let hit = finder.exec(text); hit !== null; hit = finder.exec(text)) {
      const before = seen.size;
      for (const keyword of implied.get(hit[0].toLowerCase()) ?? []) seen.add(keyword);
      if (seen.size === keywords.length) break;
      // Step one character, not past the hit: keywords overlap ("--" and "-u" in "--user").
      const next = hit.index + 1;
      useless = seen.size === before ? useless + 1 : 0;
      if (useless >= USELESS_HITS_BEFORE_NARROWING) {
        finder = finderFor(keywords.filter((k) => !seen.has(k)));
        useless = 0;
      }
      finder.lastIndex = next;
    }
    return seen;
  };

  return {
    select(text) {
      const seen = found(text);
      if (seen.size === 0) return always;
      return rules.filter((rule) => rule.keywords === undefined || rule.keywords.some((k) => seen.has(k)));
    },
  };
}
