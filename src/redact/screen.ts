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
  /**
   * What must follow a keyword for it to select the rule: tested (sticky) right after each
   * occurrence. Common words (`token`, `key`, `sk` in "task") then select a rule only where its
   * match could start, not on every text that mentions them.
   */
  after?: RegExp | undefined;
  /** The shortest text a match can be: a rule that always runs is skipped on a shorter one. */
  minLength?: number | undefined;
}

/**
 * The keywords as one Aho-Corasick automaton, compiled to a full transition table: each character
 * costs one table lookup whatever the number of keywords, and keywords that overlap or contain each
 * other ("--" and "-u" in "--user", "key" in "apikey") are all reported. A regular-expression
 * alternation of the same keywords ran at about a third of the speed, and needed care to stay linear
 * on texts repeating one keyword.
 *
 * The table's columns are the characters keywords hold (ASCII letters folded to lowercase), plus one
 * for every other character, which takes the automaton back to its start: rows of some 50 entries
 * instead of 128 keep the rows a text visits in the processor's nearest cache.
 */
class KeywordAutomaton {
  /** Column of each UTF-16 code unit; 0 for any character no keyword holds. */
  private readonly column: Uint8Array;
  /**
   * next[row + column] is the row (state times width) the automaton moves to, negated when keywords
   * end in that state (the start state, row 0, ends none): the hot loop tests a sign, not an array.
   */
  private readonly next: Int32Array;
  private readonly width: number;
  /** Keywords that end in each state (through its suffix links too); empty for most states. */
  private readonly ends: number[][];

  constructor(keywords: readonly string[]) {
    const column = new Uint8Array(65536);
    let width = 1;
    for (const keyword of keywords)
      for (let i = 0; i < keyword.length; i++) {
        const code = keyword.charCodeAt(i);
        if (column[code] !== 0) continue;
        column[code] = width;
        if (code >= 97 && code <= 122) column[code - 32] = width;
        width += 1;
      }
    const children: Array<Map<number, number>> = [new Map()];
    const ends: number[][] = [[]];
    keywords.forEach((keyword, index) => {
      let state = 0;
      for (let i = 0; i < keyword.length; i++) {
        const code = column[keyword.charCodeAt(i)]!;
        let child = children[state]!.get(code);
        if (child === undefined) {
          child = children.length;
          children.push(new Map());
          ends.push([]);
          children[state]!.set(code, child);
        }
        state = child;
      }
      ends[state]!.push(index);
    });
    // States first, as in the textbook construction; rows and signs are applied once all are known.
    const next = new Int32Array(children.length * width);
    const suffix = new Int32Array(children.length);
    // Breadth first: a state's suffix link is shallower, so its transitions are complete when needed.
    const queue: number[] = [];
    for (let code = 0; code < width; code++) {
      const child = children[0]!.get(code);
      if (child !== undefined) {
        next[code] = child;
        queue.push(child);
      }
    }
    for (let head = 0; head < queue.length; head++) {
      const state = queue[head]!;
      ends[state]!.push(...ends[suffix[state]!]!);
      for (let code = 0; code < width; code++) {
        const child = children[state]!.get(code);
        const fallback = next[suffix[state]! * width + code]!;
        if (child === undefined) next[state * width + code] = fallback;
        else {
          next[state * width + code] = child;
          suffix[child] = fallback;
          queue.push(child);
        }
      }
    }
    for (let at = 0; at < next.length; at++) {
      const state = next[at]!;
      next[at] = ends[state]!.length > 0 ? -state * width : state * width;
    }
    this.column = column;
    this.next = next;
    this.width = width;
    this.ends = ends;
  }

  /**
   * Calls `found` with the index of every keyword occurrence in `text`, case-insensitively, and the
   * offset just after it.
   */
  scan(text: string, found: (keyword: number, end: number) => void): void {
    const { column, next, ends, width } = this;
    let row = 0;
    for (let i = 0; i < text.length; i++) {
      row = next[row + column[text.charCodeAt(i)]!]!;
      if (row < 0) {
        row = -row;
        for (const keyword of ends[row / width]!) found(keyword, i + 1);
      }
    }
  }
}

export function createScreen<T extends Screened>(rules: readonly T[]): Screen<T> {
  const keywords = [...new Set(rules.flatMap((rule) => rule.keywords ?? []))];
  for (const keyword of keywords) {
    if (keyword.length === 0 || keyword !== keyword.toLowerCase() || /[^\x01-\x7f]/.test(keyword))
      throw new Error(`bad keyword "${keyword}": keywords are non-empty lowercase ASCII without NUL`);
  }
  const automaton = new KeywordAutomaton(keywords);
  const index = new Map(keywords.map((keyword, i) => [keyword, i]));
  // The rules each keyword selects, so that a hit costs its own rules, not a pass over all of them:
  // `rulesOf` select on any occurrence, `checkedOf` only where their `after` matches.
  const rulesOf: number[][] = keywords.map(() => []);
  const checkedOf: number[][] = keywords.map(() => []);
  const after = rules.map((rule) => (rule.after === undefined ? undefined : sticky(rule.after)));
  const alwaysAt: number[] = [];
  rules.forEach((rule, r) => {
    if (rule.keywords === undefined) alwaysAt.push(r);
    else
      for (const keyword of new Set(rule.keywords))
        (after[r] === undefined ? rulesOf : checkedOf)[index.get(keyword)!]!.push(r);
  });
  // Short texts (ids, paths, a resume state's strings) are most of what is guarded by count: the
  // rules that always run, whose matches are long, are left out of them. One list per shortest-match
  // length, in rule order, so that a text finds its own without one being built for it.
  const minLengthOf = (r: number) => rules[r]!.minLength ?? 0;
  const tiers = [...new Set([0, ...alwaysAt.map(minLengthOf)])]
    .sort((x, y) => x - y)
    .map((min) => {
      const at = alwaysAt.filter((r) => minLengthOf(r) <= min);
      return { min, at, rules: at.map((r) => rules[r]!) };
    });
  const alwaysFor = (length: number) => {
    let tier = tiers[0]!;
    for (const next of tiers) if (next.min <= length) tier = next;
    return tier;
  };
  // Marks of the current call (a keyword or rule marked with `call` was met in this text): no clearing.
  const keywordSeen = new Int32Array(keywords.length);
  const ruleSeen = new Int32Array(rules.length);
  let call = 0;
  let picked: number[] = [];
  let current = "";
  const pick = (r: number) => {
    ruleSeen[r] = call;
    picked.push(r);
  };
  const found = (keyword: number, end: number) => {
    if (keywordSeen[keyword] !== call) {
      keywordSeen[keyword] = call;
      for (const r of rulesOf[keyword]!) if (ruleSeen[r] !== call) pick(r);
    }
    for (const r of checkedOf[keyword]!) {
      if (ruleSeen[r] === call) continue;
      const follows = after[r]!;
      follows.lastIndex = end;
      if (follows.test(current)) pick(r);
    }
  };

  return {
    select(text) {
      if (call === 0x3fffffff) {
        keywordSeen.fill(0);
        ruleSeen.fill(0);
        call = 0;
      }
      call += 1;
      picked = [];
      current = text;
      automaton.scan(text, found);
      current = "";
      const always = alwaysFor(text.length);
      if (picked.length === 0) return always.rules;
      return [...always.at, ...picked].sort((x, y) => x - y).map((r) => rules[r]!);
    },
  };
}

/** `pattern` tested at one offset only. */
function sticky(pattern: RegExp): RegExp {
  return new RegExp(pattern.source, `${pattern.flags.replace(/[gy]/g, "")}y`);
}
