import { describe, expect, it } from "vitest";
import { compileCacheDir } from "../../src/cli/compileCache.js";

// The folder itself is checked on the installed package (test/package): entries appear there after a
// command, and the package's own folder is left as it was.
describe("where Node's compile cache is kept", () => {
  it("in $XDG_CACHE_HOME when it is an absolute path, whatever the platform", () => {
    expect(compileCacheDir({ XDG_CACHE_HOME: "/var/cache/u" }, "linux", "/home/u")).toBe(
      "/var/cache/u/cairn/compile-cache",
    );
    expect(compileCacheDir({ XDG_CACHE_HOME: "/var/cache/u" }, "darwin", "/Users/u")).toBe(
      "/var/cache/u/cairn/compile-cache",
    );
  });

  it("in the platform's cache folder otherwise; a relative XDG_CACHE_HOME is ignored, as the spec says", () => {
    expect(compileCacheDir({}, "linux", "/home/u")).toBe("/home/u/.cache/cairn/compile-cache");
    expect(compileCacheDir({ XDG_CACHE_HOME: "cache" }, "linux", "/home/u")).toBe("/home/u/.cache/cairn/compile-cache");
    expect(compileCacheDir({ XDG_CACHE_HOME: "" }, "freebsd", "/home/u")).toBe("/home/u/.cache/cairn/compile-cache");
    expect(compileCacheDir({}, "darwin", "/Users/u")).toBe("/Users/u/Library/Caches/cairn/compile-cache");
  });

  it("nowhere without a home to put it in, rather than in the working folder", () => {
    expect(compileCacheDir({}, "linux", "")).toBeUndefined();
    expect(compileCacheDir({}, "linux", "relative/home")).toBeUndefined();
  });
});
