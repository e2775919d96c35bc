import { mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { nativeModuleFault, nativeModuleFixCommand } from "../../src/store/nativeModuleFault.js";
import { CairnError } from "../../src/util/errors.js";
import { tempDir } from "../helpers/tempDir.js";

/** What Node's own loader throws for a better-sqlite3 binary it cannot load (here: not a binary at all). */
function realLoaderError(): Error {
  const release = join(tempDir("cairn-native-"), "node_modules", "better-sqlite3", "build", "Release");
  mkdirSync(release, { recursive: true });
  const binary = join(release, "better_sqlite3.node");
  writeFileSync(binary, "not a shared object");
  try {
    createRequire(import.meta.url)(binary);
  } catch (error) {
    return error as Error;
  }
  throw new Error("the loader accepted a file that is not a shared object");
}

describe("nativeModuleFault", () => {
  it("turns the loader's error, as a store open wraps it, into one line with the command that fixes it", () => {
    const loader = realLoaderError();
    expect((loader as NodeJS.ErrnoException).code).toBe("ERR_DLOPEN_FAILED");
    const wrapped = new CairnError("store_unreadable", `cannot open the store: ${loader.message}`, { cause: loader });
    const line = nativeModuleFault(wrapped);
    expect(line).toMatch(/^SQLite's native module \(better-sqlite3\) cannot be loaded by this Node\.js v\d+/);
    expect(line).toContain(`fix it with: ${nativeModuleFixCommand()}`);
    expect(line).not.toContain("\n");
  });

  it("names both module versions when the binary was built for another Node.js", () => {
    // Node's wording for an addon compiled against other headers (src/node_binding.cc).
    const error = Object.assign(
      new Error(
        "The module '/x/node_modules/better-sqlite3/build/Release/better_sqlite3.node'\nwas compiled against a different Node.js version using\nNODE_MODULE_VERSION 127. This version of Node.js requires\nNODE_MODULE_VERSION 137. Please try re-compiling or re-installing\nthe module (for instance, using `npm rebuild` or `npm install`).",
      ),
      { code: "ERR_DLOPEN_FAILED" },
    );
    expect(nativeModuleFault(error)).toMatch(
      /built for another Node\.js \(module version 127; this Node\.js v[\d.]+ needs 137\); fix it with: npm run build-release --prefix \S*better-sqlite3$/,
    );
  });

  it("leaves every other error alone", () => {
    expect(
      nativeModuleFault(new CairnError("store_unreadable", "cannot open the store: disk I/O error")),
    ).toBeUndefined();
    expect(
      nativeModuleFault(Object.assign(new Error("cannot open x.node"), { code: "ERR_DLOPEN_FAILED" })),
    ).toBeUndefined();
    expect(nativeModuleFault("ERR_DLOPEN_FAILED better-sqlite3")).toBeUndefined();
  });

  it("points the fix at the better-sqlite3 this cairn loads", () => {
    const dir = createRequire(import.meta.url)
      .resolve("better-sqlite3/package.json")
      .replace(/\/package\.json$/, "");
    expect(nativeModuleFixCommand()).toBe(`npm run build-release --prefix ${dir}`);
  });
});
