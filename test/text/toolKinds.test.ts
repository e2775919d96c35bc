import { describe, expect, it } from "vitest";
import { wordVariants } from "../../src/text/codeVocabulary.js";
import { stem } from "../../src/text/stem.js";
import { words } from "../../src/text/tokenize.js";
import { kindsNamed, oneKindOfTool } from "../../src/text/toolKinds.js";

const named = (text: string) => kindsNamed(words(text)).map((k) => k.phrase);

describe("kinds of tool named in a question", () => {
  it("finds a kind in the singular or the plural, the longest phrase first", () => {
    expect(named("which package manager does this repo use?")).toEqual(["package manager"]);
    expect(named("what test runners are configured")).toEqual(["test runners"]);
    expect(named("which databases does the service talk to")).toEqual(["databases"]);
    // "test runner" is one kind; its words are not read again as a bare "runner".
    expect(kindsNamed(words("the test runner")).length).toBe(1);
  });

  it("gives the tools of the kind, with hyphenated names as their word runs", () => {
    const [runtime] = kindsNamed(words("which runtime does it run on"));
    expect(runtime?.members).toEqual(expect.arrayContaining(["node", "bun", "deno"]));
    const [linter] = kindsNamed(words("which linter"));
    expect(linter?.members).toContain("golangci lint");
  });

  it("goes one way only: a tool never names its kind or its neighbours", () => {
    expect(named("install with pnpm and run jest")).toEqual([]);
    expect(wordVariants("pnpm")).toEqual([]);
    expect(wordVariants("npm")).not.toContain("yarn");
  });

  it("reads ordinary words as no kind", () => {
    expect(named("how do I run the tests and fix the flaky one")).toEqual([]);
  });
});

describe("oneKindOfTool", () => {
  it("says whether two tools can replace each other, in the form the caller's words are in", () => {
    expect(oneKindOfTool("npm", "pnpm")).toBe(true);
    expect(oneKindOfTool("jest", "vitest")).toBe(true);
    expect(oneKindOfTool("mysql", "postgres")).toBe(true);
    expect(oneKindOfTool("jest", "pnpm")).toBe(false);
    expect(oneKindOfTool("orders", "search")).toBe(false);
    // Words a stemmer wrote: the tools are compared in the same form.
    expect(oneKindOfTool(stem("postgresql"), stem("mysql"), stem)).toBe(true);
  });
});
