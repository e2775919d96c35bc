import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { exclusionMatcher, exclusionOf, globProblem, globToRegExp } from "../../src/project/exclusion.js";

const HOME = "/home/u";
/** Linux's rule (paths keep their case) and no disk lookups, whatever machine runs the test. */
const OPTIONS = { home: HOME, ignoreCase: false, mainWorktree: () => undefined };

describe("memories.exclude globs", () => {
  it("matches *, ** and ? with path segments in mind, and expands ~", () => {
    const match = (glob: string, text: string) => globToRegExp(glob, OPTIONS).test(text);
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
    const excluded = exclusionOf(["~/work/secret-client/**", "git:github.com/acme/*"], OPTIONS);
    expect(excluded?.("/home/u/work/secret-client/app", null)).toBe(true);
    expect(excluded?.("/home/u/work/other", "git:github.com/acme/shop")).toBe(true);
    expect(excluded?.("/home/u/work/other", "git:github.com/other/shop")).toBe(false);
    expect(excluded?.(null, null)).toBe(false);
    expect(exclusionOf([], OPTIONS)).toBeUndefined();
  });

  it("names what is wrong with a pattern it does not understand", () => {
    expect(globProblem("~/work/{a,b}/**")).toBe("'{' is not supported (only *, ** and ? are)");
    expect(globProblem("")).toBe("an empty pattern matches nothing");
    expect(globProblem("/a/***")).toMatch(/\*\*\*/);
    expect(globProblem("~/work/**")).toBeUndefined();
  });

  it("takes a plain folder, with or without a trailing slash, as that folder and everything below", () => {
    for (const glob of ["~/work/secret", "~/work/secret/", "~/work/secret/**", "/home/u/work/secret//"]) {
      const excluded = exclusionOf([glob], OPTIONS);
      expect(excluded?.("/home/u/work/secret", null), glob).toBe(true);
      expect(excluded?.("/home/u/work/secret/api/src", null), glob).toBe(true);
      expect(excluded?.("/home/u/work/secret-2", null), glob).toBe(false);
      expect(excluded?.("/home/u/work", null), glob).toBe(false);
    }
    // A key pattern stays exact: a remote is not a folder.
    expect(exclusionOf(["git:github.com/acme/shop"], OPTIONS)?.(null, "git:github.com/acme/shop-2")).toBe(false);
  });

  it("compares paths without case where the file system does (macOS, Windows), and with case elsewhere", () => {
    const insensitive = exclusionOf(["~/Work/Secret"], { ...OPTIONS, ignoreCase: true });
    expect(insensitive?.("/home/u/work/secret/api", null)).toBe(true);
    expect(exclusionOf(["~/Work/Secret"], OPTIONS)?.("/home/u/work/secret/api", null)).toBe(false);
    expect(globToRegExp("~/x", { home: HOME }).flags.includes("i")).toBe(
      process.platform === "darwin" || process.platform === "win32",
    );
  });

  it("covers a session in the folder a root: or path: key names (a worktree of a repository without remote)", () => {
    const match = exclusionMatcher(["~/work/secret"], OPTIONS);
    expect(match?.("/tmp/wt/feature", "root:/home/u/work/secret")).toBe("~/work/secret");
    expect(match?.("/tmp/wt/feature", "root:/home/u/work/other")).toBeUndefined();
  });

  it("covers a linked git worktree elsewhere of an excluded checkout, found from its .git file", () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), "cairn-exclude-")));
    try {
      const main = join(root, "work", "secret");
      mkdirSync(join(main, ".git", "worktrees", "feature"), { recursive: true });
      writeFileSync(join(main, ".git", "worktrees", "feature", "commondir"), "../..\n");
      const worktree = join(root, "elsewhere", "feature");
      mkdirSync(join(worktree, "src"), { recursive: true });
      writeFileSync(join(worktree, ".git"), `gitdir: ${join(main, ".git", "worktrees", "feature")}\n`);
      mkdirSync(join(root, "plain"), { recursive: true });
      const match = exclusionMatcher([main], { home: HOME, ignoreCase: false });
      // Its project key names the remote (git:), so only the .git file links it to the excluded folder.
      expect(match?.(join(worktree, "src"), "git:github.com/acme/secret")).toBe(main);
      expect(match?.(join(root, "plain"), `path:${join(root, "plain")}`)).toBeUndefined();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
