import { describe, expect, it } from "vitest";
import { mentionedTimeTerms, occurredTokens, queryTimeTerms, toOccurredAt } from "../../src/text/temporalTerms.js";
import { makeStore } from "./storeFixture.js";

/** Monday 8 May 2023, 13:56 UTC. */
const MONDAY = Date.UTC(2023, 4, 8, 13, 56);
/** Sunday 15 January 2023. */
const SUNDAY = Date.UTC(2023, 0, 15, 9, 0);

const day = (y: number, m: number, d: number) => {
  const mm = String(m).padStart(2, "0");
  const dd = String(d).padStart(2, "0");
  return [`d${y}${mm}${dd}`, `dm${mm}${dd}`, `m${y}${mm}`, `mo${mm}`, `y${y}`];
};
const month = (y: number, m: number) => [
  `m${y}${String(m).padStart(2, "0")}`,
  `mo${String(m).padStart(2, "0")}`,
  `y${y}`,
];
const terms = (text: string, ref = MONDAY) => mentionedTimeTerms(text, ref).split(" ").filter(Boolean).sort();
const sorted = (tokens: string[]) => [...new Set(tokens)].sort();

describe("relative-date resolution", () => {
  it.each([
    ["I went there yesterday", day(2023, 5, 7)],
    ["we talked last night", day(2023, 5, 7)],
    ["today was long", day(2023, 5, 8)],
    ["tonight we cook", day(2023, 5, 8)],
    ["this morning I ran", day(2023, 5, 8)],
    ["see you tomorrow", day(2023, 5, 9)],
    ["the day before yesterday", day(2023, 5, 6)],
    ["the day after tomorrow", day(2023, 5, 10)],
    ["last Friday I finished", day(2023, 5, 5)],
    ["last Monday", day(2023, 5, 1)],
    ["next Monday", day(2023, 5, 15)],
    ["this Friday", day(2023, 5, 12)],
    ["next Saturday", day(2023, 5, 13)],
    ["two days ago", day(2023, 5, 6)],
    ["3 days ago", day(2023, 5, 5)],
    ["in 3 days", day(2023, 5, 11)],
    ["last week", month(2023, 5)],
    ["next week", month(2023, 5)],
    ["last month", month(2023, 4)],
    ["next month", month(2023, 6)],
    ["this month", month(2023, 5)],
    ["a few weeks ago", month(2023, 4)],
    ["two months ago", month(2023, 3)],
    ["last year", ["y2022"]],
    ["next year", ["y2024"]],
    ["five years ago", ["y2018"]],
  ])("%s (said Monday 8 May 2023)", (text, expected) => {
    expect(terms(text)).toEqual(sorted(expected));
  });

  it("resolves weekends and weeks across month and year boundaries", () => {
    expect(terms("last weekend", MONDAY)).toEqual(sorted([...day(2023, 5, 6), ...day(2023, 5, 7)]));
    expect(terms("next weekend", MONDAY)).toEqual(sorted([...day(2023, 5, 13), ...day(2023, 5, 14)]));
    // On a Sunday, "last weekend" is the day before (today is still the weekend).
    expect(terms("last weekend", SUNDAY)).toEqual(sorted(day(2023, 1, 14)));
    expect(terms("last month", SUNDAY)).toEqual(sorted(month(2022, 12)));
    expect(terms("last Sunday", SUNDAY)).toEqual(sorted(day(2023, 1, 8)));
    expect(terms("yesterday", Date.UTC(2023, 0, 1))).toEqual(sorted(day(2022, 12, 31)));
  });

  it("normalizes absolute dates, taking a missing year from occurredAt", () => {
    expect(terms("on 20 May I will")).toEqual(sorted(day(2023, 5, 20)));
    expect(terms("back in June 2021")).toEqual(sorted(month(2021, 6)));
    expect(terms("on May 3rd, 2022")).toEqual(sorted(day(2022, 5, 3)));
    expect(terms("it was 2022-11-04")).toEqual(sorted(day(2022, 11, 4)));
    expect(mentionedTimeTerms("in June 2021", undefined).split(" ").sort()).toEqual(sorted(month(2021, 6)));
  });

  it("leaves text without time expressions, and the modal 'may', alone", () => {
    expect(mentionedTimeTerms("May I ask what you painted?", MONDAY)).toBe("");
    expect(mentionedTimeTerms("I like painting sunsets", MONDAY)).toBe("");
    // Without occurredAt nothing relative can be resolved.
    expect(mentionedTimeTerms("I went there yesterday", undefined)).toBe("");
  });

  it("spells the occurred day, and accepts epoch ms or ISO", () => {
    expect(occurredTokens(MONDAY)).toEqual(day(2023, 5, 8));
    expect(toOccurredAt("2023-05-08")).toBe(Date.UTC(2023, 4, 8));
    expect(toOccurredAt(MONDAY)).toBe(MONDAY);
    expect(toOccurredAt("not a date")).toBeUndefined();
    expect(toOccurredAt(undefined)).toBeUndefined();
  });
});

describe("query dates", () => {
  it.each([
    ["What did Joanna do in January 2022?", ["m202201"], ["january", "2022"]],
    ["What movie did she watch on 1 May, 2022?", ["d20220501", "m202205"], ["1", "may", "2022"]],
    ["Which spot did she visit in May?", ["mo05"], ["in", "may"]],
    ["What did she do on 8 May?", ["dm0508", "mo05"], ["8", "may"]],
    ["What happened in 2022?", ["y2022"], ["in", "2022"]],
    ["When may she go?", [], []],
  ])("%s", (query, expected, words) => {
    const result = queryTimeTerms(query);
    expect(result.terms.sort()).toEqual([...expected].sort());
    expect(result.words.sort()).toEqual([...words].sort());
  });
});

describe("time-aware recall", () => {
  it("finds 'last Friday' for a question naming that date, without changing the stored content", async () => {
    const { store } = makeStore();
    const [finished] = (await store.remember([
      { content: "I finished my screenplay last Friday!", scope: "c", occurredAt: "2022-01-23T14:01:00Z" },
      { content: "I finished the fence on Sunday.", scope: "c", occurredAt: "2022-03-10T10:00:00Z" },
      { content: "I finished a puzzle.", scope: "c", occurredAt: "2022-02-02T10:00:00Z" },
    ])) as { id: number }[];
    expect(store.get(finished!.id)?.content).toBe("I finished my screenplay last Friday!");
    expect(store.get(finished!.id)?.occurredAt).toBe(Date.UTC(2022, 0, 23, 14, 1));
    const { results } = await store.recall({ query: "What did she finish on 21 January, 2022?", scopes: ["c"] });
    expect(results[0]?.id).toBe(finished!.id);
  });

  it("keeps memories without occurredAt working as before", async () => {
    const { store } = makeStore();
    await store.remember({ content: "Deploys go through the staging cluster", scope: "p" });
    const { results } = await store.recall({ query: "staging deploys in May 2023", scopes: ["p"] });
    expect(results).toHaveLength(1);
    expect(store.get(results[0]!.id)?.occurredAt).toBeNull();
  });
});
