import { describe, expect, it } from "vitest";
import { RULES } from "../../src/redact/index.js";
import { createScreen } from "../../src/redact/screen.js";
import { readLabelled, readTrickyNegatives } from "./corpus.js";

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
