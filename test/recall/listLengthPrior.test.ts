import { describe, expect, it } from "vitest";
import { applyListLengthPrior } from "../../src/recall/listLengthPrior.js";
import { makeStore } from "../memory/storeFixture.js";
import { candidate } from "./candidateFixture.js";
import { expectQueryFlag } from "./queryFlags.js";

describe("list questions", () => {
  it("recognizes questions that ask for several things, and only those", () => {
    expectQueryFlag(
      "asksList",
      [
        "What activities does Jane partake in?",
        "Which cities has the team deployed to?",
        "what build tools do we use?",
        "What kinds of tests does the repo have?",
        "What type of art does she make?",
        "In what ways does the daemon recover?",
        "What do Jane and Ann both like?",
        "What LGBTQ+ events has Caroline attended?",
      ],
      [
        "What does James do for a living?",
        "Which Williams was it?",
        "What is Caroline's identity?",
        "What timeout does the client use?",
        "What was his reason for leaving?",
        "When did the builds start failing?",
        "Which tests fail?",
        "How many services are there?",
      ],
    );
  });

  it("scales memories shorter than the word mark by (length / words) ^ exponent, longer ones not at all", () => {
    const short = candidate(1, 0.8, { content: "Have fun!" });
    const long = candidate(2, 0.8, { content: "one two three four five six seven eight nine ten" });
    applyListLengthPrior([short, long], { words: 10, exponent: 0.5 });
    expect(short.score).toBeCloseTo(0.8 * Math.sqrt(2 / 10), 10);
    expect(long.score).toBe(0.8);
    const off = candidate(3, 0.8, { content: "Have fun!" });
    applyListLengthPrior([off], { words: 10, exponent: 0 });
    expect(off.score).toBe(0.8);
  });

  it("ranks the memory that tells what happened above a short reply for list questions only, and can be turned off", async () => {
    const others = [
      "Ann: the build cache moved to the shared volume last week, and the first runs were slow",
      "Ann: I reviewed the release notes on Friday and found two typos in the changelog",
      "Jane: the daemon restarts after a crash, but it loses the queue if the disk is full",
      "Jane: I prefer tabs over spaces, and the formatter is set up that way in the repo",
      "Ann: the API answers on port 8080 in development and behind the proxy in production",
      "Ann: I set up the staging database with a copy of last month's data",
    ];
    const memories = [
      { content: "Jane: Such fun activities, enjoy!", scope: "p", who: "Jane" },
      {
        content:
          "Jane: Last weekend I joined a pottery class and went hiking with my sister, two activities I had tried before.",
        scope: "p",
        who: "Jane",
      },
      ...others.map((content) => ({ content, scope: "p", who: content.slice(0, content.indexOf(":")) })),
    ];
    const ask = async (exponent: number) => {
      const { store } = makeStore({ config: { profile: "conversation", listLength: { exponent } } });
      const [reply, story] = (await store.remember(memories)) as { id: number }[];
      const list = await store.recall({ query: "What activities has Jane tried?", scopes: ["p"], k: 2 });
      const one = await store.recall({ query: "What activity has Jane tried?", scopes: ["p"], k: 2 });
      const ids = { reply: reply!.id, story: story!.id };
      return {
        list: list.results.map((r) => (r.id === ids.reply ? "reply" : r.id === ids.story ? "story" : r.id)),
        one: one.results.map((r) => [r.id, r.score]),
      };
    };
    const on = await ask(0.3);
    const off = await ask(0);
    expect(on.list).toEqual(["story", "reply"]);
    // Without the prior BM25's length normalization puts the five-word reply first.
    expect(off.list).toEqual(["reply", "story"]);
    // A singular question does not ask for a list: same ranking, same scores.
    expect(on.one).toEqual(off.one);
  });
});
