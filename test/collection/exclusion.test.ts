import { describe, expect, it } from "vitest";
import { exclusionOf, globProblem, globToRegExp } from "../../src/project/exclusion.js";

const HOME = "/home/u";

describe("memories.exclude globs", () => {
  it("matches *, ** and ? with path segments in mind, and expands ~", () => {
    const match = (glob: string, text: string) => globToRegExp(glob, HOME).test(text);
    expect(match("~/work/secret-client/**", "/home/u/work/secret-client")).toBe(true);
    expect(match("~/work/secret-client/**", "/home/u/work/secret-client/api/src")).toBe(true);
    expect(match("~/work/secret-client/**", "/home/u/work/secret-client-2")).toBe(false);
    expect(match("git:github.com/acme/*", "git:github.com/acme/shop")).toBe(true);
    expect(match("git:github.com/acme/*", "git:github.com/acme/shop/sub")).toBe(false);
    expect(match("git:github.com/acme/*", "git:github.com/acmeco/shop")).toBe(false);
    expect(match("**/secret/**", "/srv/x/secret/y")).toBe(true);
    expect(match("**/secret/**", "/srv/x/secrets/y")).toBe(false);
    expect(match("/tmp/run-?", "/tmp/run-1")).toBe(true);
    expect(match("/tmp/run-?", "/tmp/run-12")).toBe(false);
    expect(match("/a.b(c)", "/a.b(c)")).toBe(true);
    expect(match("/a.b", "/axb")).toBe(false);
  });

  it("matches a session by its cwd or by its project key", () => {
    const excluded = exclusionOf(["~/work/secret-client/**", "git:github.com/acme/*"], HOME);
    expect(excluded?.("/home/u/work/secret-client/app", null)).toBe(true);
    expect(excluded?.("/home/u/work/other", "git:github.com/acme/shop")).toBe(true);
    expect(excluded?.("/home/u/work/other", "git:github.com/other/shop")).toBe(false);
    expect(excluded?.(null, null)).toBe(false);
    expect(exclusionOf([], HOME)).toBeUndefined();
  });

  it("names what is wrong with a pattern it does not understand", () => {
    expect(globProblem("~/work/{a,b}/**")).toBe("'{' is not supported (only *, ** and ? are)");
    expect(globProblem("")).toBe("an empty pattern matches nothing");
    expect(globProblem("/a/***")).toMatch(/\*\*\*/);
    expect(globProblem("~/work/**")).toBeUndefined();
  });
});
