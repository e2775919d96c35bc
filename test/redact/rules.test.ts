import { describe, expect, it } from "vitest";
import { RULES } from "../../src/redact/index.js";
import { createScreen } from "../../src/redact/screen.js";
import { readLabelled, readTrickyNegatives } from "./corpus.js";
import { asFileView, FILE_VIEWS } from "./fileViews.js";

/** Every rule the screen must select for `text`: those whose pattern matches it. */
function matchingRules(text: string) {
  return RULES.filter((rule) => {
    rule.pattern.lastIndex = 0;
    return rule.pattern.test(text);
  });
}

/** Ordinary words, long enough that the screen's prefilter runs first, holding no keyword. */
const FILLER = "the parser returns the module index when the build cache is warm and the schema is current. ".repeat(4);

describe("the rules as data", () => {
  it("are global regexes with lowercase, dash-separated names and lowercase keywords", () => {
    for (const rule of RULES) {
      expect(rule.pattern.flags, rule.name).toContain("g");
      expect(rule.name).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
      for (const keyword of rule.keywords ?? []) expect(keyword, rule.name).toBe(keyword.toLowerCase());
    }
  });

  it("name capture groups that exist in their pattern", () => {
    for (const rule of RULES) {
      const groupCount = new RegExp(`${rule.pattern.source}|`).exec("")!.length - 1;
      const groups = rule.group === undefined ? [] : typeof rule.group === "number" ? [rule.group] : rule.group;
      for (const group of groups) expect(group, rule.name).toBeLessThanOrEqual(groupCount);
    }
  });

  it("that always run state a shortest match no longer than their shortest possible secret", () => {
    // The shortest text each such pattern can match, built from its quantifiers' minimums: a
    // `minLength` above it would hide a real secret from the screen.
    const shortest: Record<string, string> = {
      "discord-bot-token": `M${"a".repeat(22)}1.abcdef.${"b".repeat(27)}`,
      "mailgun-api-key": `${"a".repeat(32)}-${"b".repeat(8)}-${"c".repeat(8)}`,
    };
    const screen = createScreen(RULES);
    for (const rule of RULES.filter((candidate) => candidate.keywords === undefined)) {
      const text = shortest[rule.name]!;
      expect(matchingRules(text), rule.name).toContain(rule);
      expect(rule.minLength, rule.name).toBe(text.length);
      expect(screen.select(text), rule.name).toContain(rule);
      expect(screen.select(text.slice(1)), rule.name).not.toContain(rule);
    }
  });

  it("keep rules without keywords (run on every text) to a few", () => {
    expect(RULES.filter((rule) => rule.keywords === undefined).map((rule) => rule.name)).toEqual([
      "discord-bot-token",
      "mailgun-api-key",
    ]);
  });
});

describe("the keyword screen", () => {
  // A rule's keywords must occur in every text it matches; otherwise the screen hides its matches.
  it("never skips a rule that would have matched", () => {
    const screen = createScreen(RULES);
    const texts = [...readLabelled().map((example) => example.text), ...readTrickyNegatives()];
    for (const text of texts) {
      const selected = new Set(screen.select(text));
      for (const rule of RULES) {
        rule.pattern.lastIndex = 0;
        if (rule.pattern.test(text)) expect(selected.has(rule), `${rule.name} on ${text.slice(0, 80)}`).toBe(true);
      }
    }
  });

  it("never skips a rule that would have matched, in any case, shape or place in a long text", () => {
    const screen = createScreen(RULES);
    let checked = 0;
    for (const example of readLabelled()) {
      const shapes = [example.text.toUpperCase(), example.text.toLowerCase(), JSON.stringify(example.text)];
      for (const view of Object.values(FILE_VIEWS)) shapes.push(asFileView(example.text, view));
      for (const rule of matchingRules(example.text)) {
        // The match alone puts a keyword at the very start and end of the text.
        rule.pattern.lastIndex = 0;
        shapes.push(rule.pattern.exec(example.text)![0]);
      }
      for (const shape of shapes) {
        // A keyword-free filler changes no rule's match: the shape's rules are those of each placement.
        const rules = matchingRules(shape);
        for (const text of [shape, FILLER + shape, shape + FILLER, `${FILLER}\n${shape}\n${FILLER}`]) {
          const selected = new Set(screen.select(text));
          for (const rule of rules) {
            checked += 1;
            expect(selected.has(rule), `${rule.name} on ${text.slice(0, 80)}`).toBe(true);
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(1000);
    // Thousands of screens over every labelled example: seconds on a quiet machine, far more on a busy one.
  }, 120_000);

  it("selects a rule whose keyword is a common word only where `after` follows the keyword", () => {
    const assignment = { keywords: ["token"], after: /[ \t]*[:=]/ };
    const plain = { keywords: ["token"] };
    const screen = createScreen([assignment, plain]);
    expect(screen.select("the token limit was reached")).toEqual([plain]);
    expect(screen.select("TOKEN = abc")).toEqual([assignment, plain]);
    // Any one occurrence followed as required is enough, however many are not.
    expect(screen.select(`${"token, ".repeat(50)}token: abc`)).toEqual([assignment, plain]);
    expect(screen.select(`${FILLER}token=`)).toEqual([assignment, plain]);
    expect(screen.select("token")).toEqual([plain]);
  });

  it("finds a keyword anywhere in a long text, in any case, and nothing in a text without one", () => {
    const always = { keywords: undefined };
    const rules = [always, { keywords: ["ghp_"] }, { keywords: ["key"] }];
    const screen = createScreen(rules);
    expect(screen.select(FILLER)).toEqual([always]);
    expect(screen.select(`GHP_${FILLER}`)).toEqual([always, rules[1]]);
    expect(screen.select(`${FILLER}Ghp_`)).toEqual([always, rules[1]]);
    expect(screen.select(`${FILLER}kEy${FILLER}ghp_`)).toEqual([always, rules[1], rules[2]]);
    // Split by anything, even a character that folds to nothing, a keyword is not there.
    expect(screen.select(`${FILLER}gh\u200Bp_ k\u00e9y`)).toEqual([always]);
  });

  it("finds keywords that overlap or repeat, in any case", () => {
    const rules = [{ keywords: ["--"] }, { keywords: ["-u"] }, { keywords: ["key"] }, { keywords: ["apikey"] }];
    const screen = createScreen(rules);
    expect(screen.select("curl --user a:b")).toEqual([rules[0], rules[1]]);
    expect(screen.select("APIKEY=1")).toEqual([rules[2], rules[3]]);
    expect(screen.select(`${"token ".repeat(1000)}--`)).toEqual([rules[0]]);
    expect(screen.select("nothing here")).toEqual([]);
    // Only ASCII letters fold; any other character breaks a keyword (as the regular-expression screen did).
    expect(screen.select("K\u00e9y, \u212aey, k\u0000ey")).toEqual([]);
    expect(screen.select("\u00e9KEY\u00e9")).toEqual([rules[2]]);
  });
});

describe("the keyword screen's keywords", () => {
  it.each([[""], ["Key"], ["k\u00e9y"], ["k\u0000y"]])(
    "refuses %j in one line that says what a keyword must be",
    (keyword) => {
      expect(() => createScreen([{ keywords: ["ok", keyword] }])).toThrow(
        `bad keyword "${keyword}": keywords are non-empty lowercase ASCII without NUL`,
      );
    },
  );

  it("folds only letters: a keyword of punctuation is not found in the characters 32 below it", () => {
    const rules = [{ keywords: ["--"] }, { keywords: ["{{"] }, { keywords: ["ab"] }];
    const screen = createScreen(rules);
    expect(screen.select("a\r\rb [[x]] AB")).toEqual([rules[2]]);
    expect(screen.select("-- {{")).toEqual([rules[0], rules[1]]);
  });
});
