/**
 * Deterministic synthetic memories for the scale benchmark: pseudo-words with a Zipf-like frequency
 * (a few very common, a long tail of rare ones, like real text), 12-40 words per memory, spread over
 * project scopes plus a `global` scope.
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES = [
  "ka",
  "lo",
  "mi",
  "ner",
  "tos",
  "va",
  "qui",
  "bre",
  "dan",
  "sel",
  "po",
  "rik",
  "ta",
  "mu",
  "zen",
  "gal",
];

export class SyntheticCorpus {
  private readonly random: () => number;
  readonly vocabulary: string[];

  constructor(
    seed: number,
    vocabularySize: number,
    readonly scopes: number,
  ) {
    this.random = mulberry32(seed);
    this.vocabulary = Array.from({ length: vocabularySize }, (_, i) => {
      let word = "";
      let n = i + 7;
      while (n > 0) {
        word += SYLLABLES[n % SYLLABLES.length];
        n = Math.floor(n / SYLLABLES.length);
      }
      return word;
    });
  }

  /** Zipf-like: rank ~ size^u for uniform u, so rank 1 is far more common than rank 10,000. */
  word(): string {
    const rank = Math.floor(this.vocabulary.length ** this.random()) - 1;
    return this.vocabulary[Math.min(this.vocabulary.length - 1, Math.max(0, rank))]!;
  }

  memory(): { content: string; scope: string } {
    const length = 12 + Math.floor(this.random() * 29);
    const words = Array.from({ length }, () => this.word());
    const scope = this.random() < 0.05 ? "global" : `project-${Math.floor(this.random() * this.scopes)}`;
    return { content: words.join(" "), scope };
  }

  /** A query of 3-6 words taken from a stored memory (so it has real hits), in its scope plus global. */
  queryFrom(memory: { content: string; scope: string }): { query: string; scopes: string[] } {
    const words = memory.content.split(" ");
    const n = 3 + Math.floor(this.random() * 4);
    const picked = Array.from({ length: n }, () => words[Math.floor(this.random() * words.length)]!);
    return { query: picked.join(" "), scopes: memory.scope === "global" ? ["global"] : [memory.scope, "global"] };
  }
}
