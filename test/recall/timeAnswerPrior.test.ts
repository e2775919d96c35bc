import { describe, expect, it } from "vitest";
import { mentionsOtherTime } from "../../src/recall/timeAnswerPrior.js";
import { occurredTokens } from "../../src/text/temporalTerms.js";
import { makeStore } from "../memory/storeFixture.js";
import { expectQueryFlag } from "./queryFlags.js";

const MAY_7 = Date.UTC(2023, 4, 7, 15, 0);

describe("time-answer prior", () => {
  it("recognizes questions that ask for a time, and only those", () => {
    expectQueryFlag(
      "asksWhen",
      [
        "When did Jane move to Lisbon?",
        "  when is the release?",
        "What year did the migration ship?",
        "Which month was the outage?",
        "On what day did we switch to pnpm?",
        "How long ago did the CI break?",
      ],
      [
        "What did Jane decide about caching?",
        "Where did she move when she left?",
        "What timeout does the client use?",
        "How long does the build take?",
        "Which daemon serves the API?",
      ],
    );
  });

  it("counts a mentioned time only when it is not the moment the memory was said", () => {
    const own = occurredTokens(MAY_7).join(" ");
    expect(mentionsOtherTime(MAY_7, own)).toBe(false);
    expect(mentionsOtherTime(MAY_7, "")).toBe(false);
    expect(mentionsOtherTime(MAY_7, null)).toBe(false);
    // "yesterday" said on 7 May 2023.
    expect(mentionsOtherTime(MAY_7, "d20230506 dm0506 m202305 mo05 y2023")).toBe(true);
    // Without an occurrence time any named date counts.
    expect(mentionsOtherTime(null, "y2021")).toBe(true);
  });

  it("ranks the memory that says when above one that only shares the words, and can be turned off", async () => {
    const memories = [
      { content: "Jane moved the build cache to the shared volume and it was painful", scope: "p" },
      { content: "Jane moved the build cache yesterday", scope: "p" },
    ].map((m) => ({ ...m, occurredAt: MAY_7 }));
    const ask = async (penalty: number) => {
      const { store } = makeStore({ config: { timeAnswer: { penalty } } });
      const [painful, dated] = (await store.remember(memories)) as { id: number }[];
      const when = await store.recall({
        query: "When did Jane move the build cache to the shared volume?",
        scopes: ["p"],
      });
      const what = await store.recall({
        query: "Where did Jane move the build cache to the shared volume?",
        scopes: ["p"],
      });
      return {
        painful: painful!.id,
        dated: dated!.id,
        when: when.results.map((r) => r.id),
        what: what.results.map((r) => r.id),
      };
    };
    const on = await ask(0.7);
    expect(on.when).toEqual([on.dated, on.painful]);
    // The same words without "when" rank by the words: the longer match first.
    expect(on.what).toEqual([on.painful, on.dated]);
    const off = await ask(1);
    expect(off.when).toEqual([off.painful, off.dated]);
  });
});
