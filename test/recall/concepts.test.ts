import { describe, expect, it } from "vitest";
import { conceptWords, nounOf, parseLexicon, shippedLexicon } from "../../src/lexicon/concepts.js";

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
});
