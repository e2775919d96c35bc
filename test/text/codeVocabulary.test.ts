import { describe, expect, it } from "vitest";
import { agentNounVariant, phraseVariants, singulars, wordVariants } from "../../src/text/codeVocabulary.js";
import { words } from "../../src/text/tokenize.js";

describe("the code vocabulary", () => {
  it("joins an abbreviation and its long form in both directions, plurals included", () => {
    expect(wordVariants("e2e")).toEqual(["end to end"]);
    expect(wordVariants("deps")).toEqual(["dependency"]);
    expect(wordVariants("dependencies")).toEqual(["dep"]);
    expect(wordVariants("db")).toEqual(["database"]);
    expect(wordVariants("databases")).toEqual(["db"]);
    expect(wordVariants("k8s")).toEqual(["kubernetes"]);
    expect(wordVariants("repos")).toEqual(["repository"]);
    expect(wordVariants("env")).toEqual(["environment"]);
    expect(wordVariants("prs")).toEqual(["pull request"]);
  });

  it("leaves out forms the index's Porter stemmer already joins", () => {
    // "configs", "config" stem alike; "configuration" and "cfg" are the other forms.
    expect(wordVariants("configs")).toEqual(["configuration", "cfg"]);
    expect(wordVariants("compiler")).toEqual([]);
    expect(wordVariants("minifier")).toEqual([]);
  });

  it("reaches both senses of an ambiguous short form, but never joins the senses", () => {
    expect(wordVariants("auth")).toEqual(["authentication", "authn", "authorization", "authorisation", "authz"]);
    expect(wordVariants("authentication")).toEqual(["auth", "authn"]);
    expect(wordVariants("authorization")).toEqual(["auth", "authorisation", "authz"]);
  });

  it("leaves alone short forms that are path segments or have a second coding meaning", () => {
    for (const word of ["src", "lib", "ts", "js", "py", "cd", "spec", "sync", "req", "node", "var"])
      expect(wordVariants(word), word).toEqual([]);
  });

  it("joins a tool noun and the verb it is named for, with their inflections", () => {
    expect(wordVariants("linter")).toEqual(["lint"]);
    expect(wordVariants("linters")).toEqual(["lint"]);
    expect(wordVariants("lint")).toEqual(["linter"]);
    expect(wordVariants("linting")).toEqual(["linter"]);
    expect(wordVariants("formatter")).toEqual(["format"]);
    expect(wordVariants("formatting")).toEqual(["formatter"]);
    expect(wordVariants("bundler")).toEqual(["bundle"]);
    expect(agentNounVariant("debugger")).toBe("debug");
    expect(agentNounVariant("compiler")).toBeUndefined();
  });

  it("does not fold other -er nouns into a verb", () => {
    for (const word of ["user", "server", "container", "worker", "runner", "builder", "tester", "logger"]) {
      expect(agentNounVariant(word), word).toBeUndefined();
      expect(wordVariants(word), word).toEqual([]);
    }
  });

  it("finds multi-word forms in a run of words, hyphenated or not, longest first", () => {
    expect(phraseVariants(words("How do I run the end-to-end tests?"))).toEqual([
      { phrase: "end to end", variants: ["e2e"] },
    ]);
    expect(phraseVariants(words("open a Pull Request and wait for continuous integration"))).toEqual([
      { phrase: "pull request", variants: ["pr"] },
      { phrase: "continuous integration", variants: ["ci"] },
    ]);
    expect(phraseVariants(words("which environment variables does it read"))).toEqual([
      { phrase: "environment variables", variants: ["env var", "envvar"] },
    ]);
    expect(phraseVariants(words("the error log in JSON, at run time"))).toEqual([]);
  });

  it("reads a word as itself or the singular it may be a plural of", () => {
    expect(singulars("dependencies")).toEqual(["dependencies", "dependencie", "dependenci", "dependency"]);
    expect(singulars("caches")).toContain("cache");
    expect(singulars("indexes")).toContain("index");
    expect(singulars("deps")).toEqual(["deps", "dep"]);
    expect(singulars("class")).toEqual(["class"]);
    expect(singulars("js")).toEqual(["js"]);
  });
});
