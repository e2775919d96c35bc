import { readFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import { defaultRecallConfig } from "../../src/config/recallConfig.js";
import { categoryMatch } from "../../src/recall/categoryMatch.js";
import {
  categoryBreadth,
  conceptWords,
  nounOf,
  parseLexicon,
  pluralCategories,
  shippedCategoryBreadth,
  shippedLexicon,
  shippedLexiconPath,
} from "../../src/text/lexicon/concepts.js";

/** A hand-made lexicon in the generator's format: swimming -> aquatics -> sport -> recreation. */
const lexicon = parseLexicon(
  [
    "# comment",
    "=0 aquatics",
    "=1 sport",
    "=2 recreation",
    "=3 instrument",
    "=4 device",
    "=5 juvenile",
    "swimming 0;1;2",
    "guitar 3;4",
    "violin 3",
    "kid 5",
    "box 4",
    "city 1,4",
  ].join("\n"),
);

describe("concept lexicon", () => {
  it("parses categories and per-depth ancestors", () => {
    expect(lexicon.categories[1]).toEqual(["sport"]);
    expect(lexicon.nouns.get("swimming")).toEqual([[0], [1], [2]]);
    expect(lexicon.nouns.get("city")).toEqual([[1, 4]]);
  });

  it("finds the listed noun of a plural by the regular noun rules", () => {
    expect(nounOf("kids", lexicon)).toBe("kid");
    expect(nounOf("boxes", lexicon)).toBe("box");
    expect(nounOf("cities", lexicon)).toBe("city");
    expect(nounOf("guitar", lexicon)).toBe("guitar");
    expect(nounOf("swims", lexicon)).toBeUndefined();
    expect(nounOf("s", lexicon)).toBeUndefined();
  });

  it("gives the category words of a text's nouns up to a depth, nearest first, distinct", () => {
    const text = "We went swimming with the kids, then played guitar and violin.";
    expect(conceptWords(text, lexicon, 1)).toEqual(["aquatics", "juvenile", "instrument"]);
    expect(conceptWords(text, lexicon, 2)).toEqual(["aquatics", "sport", "juvenile", "instrument", "device"]);
    expect(conceptWords(text, lexicon, 3)).toEqual([
      "aquatics",
      "sport",
      "recreation",
      "juvenile",
      "instrument",
      "device",
    ]);
    expect(conceptWords(text, lexicon, 0)).toEqual([]);
  });

  it("leaves out the words the text already contains", () => {
    expect(conceptWords("Swimming is my favourite sport", lexicon, 3)).toEqual(["aquatics", "recreation"]);
  });

  it("ships a WordNet lexicon that knows common nouns", () => {
    const shipped = shippedLexicon();
    expect(parseLexicon(readFileSync(shippedLexiconPath, "utf8")).nouns.size).toBeGreaterThan(10_000);
    expect(conceptWords("We went swimming.", shipped, 2)).toEqual(["aquatics", "sport"]);
    expect(conceptWords("I bought a new guitar", shipped, 1)).toEqual(["instrument"]);
  });

  it("counts the nouns that reach each category word within a depth", () => {
    expect(Object.fromEntries(categoryBreadth(lexicon, 1))).toEqual({
      aquatics: 1,
      instrument: 2,
      device: 2,
      sport: 1,
      juvenile: 1,
    });
    expect(Object.fromEntries(categoryBreadth(lexicon, 2))).toEqual({
      aquatics: 1,
      sport: 2,
      instrument: 2,
      device: 3,
      juvenile: 1,
    });
    expect(categoryBreadth(lexicon, 3).get("recreation")).toBe(1);
  });

  it("picks the plural query words whose singular is a broad enough category", () => {
    const terms = ["instruments", "devices", "sports", "kids", "juveniles", "recreations", "guitar", "sport"];
    expect(pluralCategories(terms, categoryBreadth(lexicon, 2), 2)).toEqual([
      { word: "instruments", category: "instrument" },
      { word: "devices", category: "device" },
      { word: "sports", category: "sport" },
    ]);
    expect(pluralCategories(terms, categoryBreadth(lexicon, 2), 3)).toEqual([{ word: "devices", category: "device" }]);
    expect(pluralCategories(terms, categoryBreadth(lexicon, 3), 1).map((c) => c.word)).toEqual([
      "instruments",
      "devices",
      "sports",
      "juveniles",
      "recreations",
    ]);
  });

  it("ships category breadths that agree with the ones computed from its nouns", () => {
    const lexicon = parseLexicon(readFileSync(shippedLexiconPath, "utf8"));
    for (const depth of [1, 2, 3]) {
      const computed = categoryBreadth(lexicon, depth);
      const shipped = shippedCategoryBreadth(depth);
      expect([...computed].filter(([word, count]) => shipped.get(word) !== count)).toEqual([]);
      expect(breadthWords().filter((word) => shipped.get(word) !== computed.get(word))).toEqual([]);
    }
    expect(breadthWords().filter((word) => shippedCategoryBreadth(0).get(word) !== undefined)).toEqual([]);
    expect([...lexicon.nouns.keys()].some((noun) => noun.startsWith("~"))).toBe(false);
  });

  it("builds the concept clause of a query's plural categories from the shipped lexicon", () => {
    const concept = defaultRecallConfig().conceptIndex;
    expect(concept.categoryRepeat).toBe(1);
    expect(categoryMatch(["activities", "alice", "partake"], concept)).toBe('"activities"');
    expect(categoryMatch(["instruments", "cities"], { ...concept, categoryRepeat: 2 })).toBe(
      '"instruments" OR "instruments" OR "cities" OR "cities"',
    );
    expect(categoryMatch(["guitar", "activity"], concept)).toBe("");
  });

  it("adds the nouns a query asks for a kind of, when they are categories among its terms", () => {
    const concept = defaultRecallConfig().conceptIndex;
    expect(categoryMatch(["kind", "art", "caroline", "make"], concept, ["art"])).toBe('"art"');
    expect(categoryMatch(["instruments"], concept, ["instruments"])).toBe('"instruments"');
    // "pottery" names too few nouns to be a category; a word the query no longer searches is left out.
    expect(categoryMatch(["kind", "pottery"], concept, ["pottery"])).toBe("");
    expect(categoryMatch(["kind", "caroline"], concept, ["art"])).toBe("");
  });
});

/** The category words of the shipped file's "~" lines, with plural forms and non-words beside them. */
function breadthWords(): string[] {
  const text = readFileSync(shippedLexiconPath, "utf8");
  const listed = [...text.matchAll(/^~(\S+)/gm)].map((m) => m[1]!);
  return [
    ...listed,
    ...listed.map((w) => `${w}s`),
    "",
    "zzzz",
    "aaa",
    "~ability",
    "ability ",
    "caf\u00e9",
    "\u00e9t\u00e9",
  ];
}

describe("the shipped lexicon's lookups", () => {
  // The lookups binary-search the file; these compare them with a whole parse of the same file.
  const text = readFileSync(shippedLexiconPath, "utf8");
  const parsed = parseLexicon(text);
  const shipped = shippedLexicon();
  const nouns = [...parsed.nouns.keys()];

  it("finds every noun's levels and nothing for other words", () => {
    expect(nouns.filter((noun) => !isDeepStrictEqual(shipped.levelsOf(noun), parsed.nouns.get(noun)))).toEqual([]);
    const others = [
      ...nouns.flatMap((n) => [`${n}s`, `${n}es`, n.slice(0, -1), `${n}z`, `a${n}`]),
      "",
      "a",
      "zzzzzz",
      "=0",
      "~ability",
      "#",
      "dog cat",
      "caf\u00e9",
      "\u00fcber",
      "\u{1f600}",
      "ABILITY",
    ];
    expect(others.filter((word) => !isDeepStrictEqual(shipped.levelsOf(word), parsed.levelsOf(word)))).toEqual([]);
  });

  it("spells every category as the parse does, and unknown ids as nothing", () => {
    const ids = Array.from({ length: parsed.categories.length + 5 }, (_, i) => i - 2);
    expect(ids.filter((id) => !isDeepStrictEqual(shipped.wordsOf(id), parsed.wordsOf(id)))).toEqual([]);
    expect(shipped.wordsOf(1.5)).toEqual(parsed.wordsOf(1.5));
  });

  it("gives the same concept words as the parsed lexicon for texts of nouns, plurals and other words", () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const pick = () => {
      const noun = nouns[Math.floor(random() * nouns.length)]!;
      const form = random();
      return form < 0.5
        ? noun
        : form < 0.7
          ? `${noun}s`
          : form < 0.8
            ? `The ${noun}'s`
            : `${noun}ing, ${noun.toUpperCase()}!`;
    };
    const differing: string[] = [];
    for (let t = 0; t < 3000; t++) {
      const sentence = Array.from({ length: 3 + Math.floor(random() * 25) }, pick).join(" ");
      for (const depth of [0, 1, 2, 3, 4])
        if (!isDeepStrictEqual(conceptWords(sentence, shipped, depth), conceptWords(sentence, parsed, depth)))
          differing.push(`${depth}: ${sentence}`);
    }
    expect(differing).toEqual([]);
    const prose =
      "We went swimming and to a concert; the kids' guitars, caf\u00e9s and cities were great. Don't panic.";
    expect(conceptWords(prose, shipped, 3)).toEqual(conceptWords(prose, parsed, 3));
    for (const word of ["kids", "boxes", "cities", "churches", "women", "glasses", "foxes", "s", "ss"])
      expect(nounOf(word, shipped), word).toBe(nounOf(word, parsed));
  });
});
