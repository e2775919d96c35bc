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
    expect(shipped.nouns.size).toBeGreaterThan(10_000);
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
    const lexicon = shippedLexicon();
    for (const depth of [1, 2, 3]) {
      expect(Object.fromEntries(shippedCategoryBreadth(depth))).toEqual(
        Object.fromEntries(categoryBreadth(lexicon, depth)),
      );
    }
    expect(shippedCategoryBreadth(0).size).toBe(0);
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
