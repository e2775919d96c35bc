/**
 * The Porter (1980) stemmer, the same algorithm as SQLite's `porter` tokenizer, so terms stemmed here
 * (hashed embeddings, overlap checks) agree with what the FTS index matches.
 */
const STEP2: Record<string, string> = {
  ational: "ate",
  tional: "tion",
  enci: "ence",
  anci: "ance",
  izer: "ize",
  bli: "ble",
  alli: "al",
  entli: "ent",
  eli: "e",
  ousli: "ous",
  ization: "ize",
  ation: "ate",
  ator: "ate",
  alism: "al",
  iveness: "ive",
  fulness: "ful",
  ousness: "ous",
  aliti: "al",
  iviti: "ive",
  biliti: "ble",
  logi: "log",
};
const STEP3: Record<string, string> = {
  icate: "ic",
  ative: "",
  alize: "al",
  iciti: "ic",
  ical: "ic",
  ful: "",
  ness: "",
};
const STEP4 = [
  "al",
  "ance",
  "ence",
  "er",
  "ic",
  "able",
  "ible",
  "ant",
  "ement",
  "ment",
  "ent",
  "ion",
  "ou",
  "ism",
  "ate",
  "iti",
  "ous",
  "ive",
  "ize",
];

function isConsonant(word: string, i: number): boolean {
  const c = word[i];
  if (c === "a" || c === "e" || c === "i" || c === "o" || c === "u") return false;
  if (c === "y") return i === 0 || !isConsonant(word, i - 1);
  return true;
}

/** m: the number of vowel-consonant sequences in the stem. */
function measure(stem: string): number {
  let m = 0;
  let i = 0;
  const n = stem.length;
  while (i < n && isConsonant(stem, i)) i++;
  while (i < n) {
    while (i < n && !isConsonant(stem, i)) i++;
    if (i >= n) break;
    while (i < n && isConsonant(stem, i)) i++;
    m++;
  }
  return m;
}

function hasVowel(stem: string): boolean {
  for (let i = 0; i < stem.length; i++) if (!isConsonant(stem, i)) return true;
  return false;
}

function endsDoubleConsonant(w: string): boolean {
  const n = w.length;
  return n >= 2 && w[n - 1] === w[n - 2] && isConsonant(w, n - 1);
}

/** *o: the stem ends consonant-vowel-consonant, the last not w, x or y. */
function endsCvc(w: string): boolean {
  const n = w.length;
  if (n < 3) return false;
  const last = w[n - 1];
  return (
    isConsonant(w, n - 3) &&
    !isConsonant(w, n - 2) &&
    isConsonant(w, n - 1) &&
    last !== "w" &&
    last !== "x" &&
    last !== "y"
  );
}

function step1ab(w: string): string {
  if (w.endsWith("sses")) w = w.slice(0, -2);
  else if (w.endsWith("ies")) w = w.slice(0, -2);
  else if (!w.endsWith("ss") && w.endsWith("s")) w = w.slice(0, -1);
  if (w.endsWith("eed")) {
    if (measure(w.slice(0, -3)) > 0) w = w.slice(0, -1);
    return w;
  }
  let stripped: string | undefined;
  if (w.endsWith("ed") && hasVowel(w.slice(0, -2))) stripped = w.slice(0, -2);
  else if (w.endsWith("ing") && hasVowel(w.slice(0, -3))) stripped = w.slice(0, -3);
  if (stripped === undefined) return w;
  w = stripped;
  if (w.endsWith("at") || w.endsWith("bl") || w.endsWith("iz")) return `${w}e`;
  if (endsDoubleConsonant(w) && !/[lsz]$/.test(w)) return w.slice(0, -1);
  if (measure(w) === 1 && endsCvc(w)) return `${w}e`;
  return w;
}

/** The tables as lists, made once: `Object.entries` in the loop built a new list at every call. */
const STEP2_ENTRIES = Object.entries(STEP2);
const STEP3_ENTRIES = Object.entries(STEP3);

function replaceSuffix(w: string, table: readonly [string, string][], minMeasure: number): string {
  for (const [suffix, replacement] of table) {
    if (w.endsWith(suffix)) {
      const stem = w.slice(0, -suffix.length);
      return measure(stem) > minMeasure ? stem + replacement : w;
    }
  }
  return w;
}

function step4(w: string): string {
  for (const suffix of STEP4) {
    if (!w.endsWith(suffix)) continue;
    const stem = w.slice(0, -suffix.length);
    if (measure(stem) <= 1) return w;
    if (suffix === "ion" && !/[st]$/.test(stem)) return w;
    return stem;
  }
  return w;
}

function step5(w: string): string {
  if (w.endsWith("e")) {
    const stem = w.slice(0, -1);
    const m = measure(stem);
    if (m > 1 || (m === 1 && !endsCvc(stem))) w = stem;
  }
  if (measure(w) > 1 && endsDoubleConsonant(w) && w.endsWith("l")) w = w.slice(0, -1);
  return w;
}

/**
 * Stems one lowercase word. Words of one or two characters, and words with characters other than
 * ASCII letters and digits, are returned as they are. Digits count as consonants, as in SQLite's
 * tokenizer, which indexes "e2e" as "e2" and "k8s" as "k8": a query's stems must be the index's
 * terms for their document frequencies to be found.
 */
export function stem(word: string): string {
  if (word.length <= 2 || /[^a-z0-9]/.test(word)) return word;
  const known = stems.get(word);
  if (known !== undefined) return known;
  let w = step1ab(word);
  if (w.endsWith("y") && hasVowel(w.slice(0, -1))) w = `${w.slice(0, -1)}i`;
  w = replaceSuffix(w, STEP2_ENTRIES, 0);
  w = replaceSuffix(w, STEP3_ENTRIES, 0);
  w = step4(w);
  w = step5(w);
  if (stems.size >= KEPT_STEMS) stems.clear();
  stems.set(word, w);
  return w;
}

/**
 * Stems computed lately. The write path stems the same few thousand words again and again (every
 * memory's tokens, each supersession detector's reading of both sides of a pair), and a word's stem
 * never changes; a store's vocabulary fits easily, and a flood of new words only starts the memo over.
 */
const KEPT_STEMS = 50_000;
const stems = new Map<string, string>();
