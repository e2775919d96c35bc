import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { codeCacheFile } from "../../src/cli/loadProgram.js";
import { tempDir } from "../helpers/tempDir.js";
import { spawnSyncTimed } from "../helpers/timedSpawn.js";

const root = join(import.meta.dirname, "..", "..");
const bin = join(root, "dist", "cli", "main.cjs");
const built = existsSync(bin);
if (!built) console.warn(`code cache suite skipped: ${bin} is missing (run npm run build)`);

/** The built CLI's id (scripts/bundle-cli.mjs writes it into the bin). */
function buildId(): string {
  const found = /cairn-build-[0-9a-f]{16}/.exec(readFileSync(bin, "utf8"));
  if (!found) throw new Error("no build id in dist/cli/main.cjs");
  return found[0];
}

function setup() {
  const dir = tempDir("cairn-code-cache-");
  const cache = join(dir, "cache");
  const env = {
    PATH: process.env.PATH ?? "",
    HOME: dir,
    CAIRN_HOME: join(dir, "cairn"),
    CAIRN_RESIDENT: "off",
    XDG_CACHE_HOME: cache,
  };
  const run = (args: string[], extra: Record<string, string> = {}) =>
    spawnSyncTimed(process.execPath, [bin, ...args], { encoding: "utf8", env: { ...env, ...extra }, cwd: dir });
  const file = (command: string) => codeCacheFile(join(cache, "cairn", "code-cache"), buildId(), command);
  expect(run(["remember", "--scope", "global", "Integration tests need Postgres 16 on port 5433"]).status).toBe(0);
  return { dir, cache, run, file };
}

describe.skipIf(!built)("the program's code cache (src/cli/loadProgram.ts)", () => {
  it("is made by the first run of a command, in the user's cache folder, and used as it is by the next", () => {
    const { run, file } = setup();
    const first = run(["recall", "--scope", "global", "which port does postgres use"]);
    expect(first.status, first.stderr).toBe(0);
    const cache = file("recall");
    expect(existsSync(cache)).toBe(true);
    expect(statSync(cache).mode & 0o777).toBe(0o600);
    expect(statSync(join(cache, "..")).mode & 0o777).toBe(0o700);
    const made = readFileSync(cache);
    const second = run(["recall", "--scope", "global", "which port does postgres use"]);
    expect(second.stdout).toBe(first.stdout);
    // Accepted by V8: left as it was, not made again.
    expect(readFileSync(cache).equals(made)).toBe(true);
    // Each command its own: the code a recall used is not what a remember uses.
    expect(existsSync(file("remember"))).toBe(true);
  });

  it("replaces a damaged cache, and a command still answers with it", () => {
    const { run, file } = setup();
    const cache = file("recall");
    mkdirSync(join(cache, ".."), { recursive: true, mode: 0o700 });
    writeFileSync(cache, "not a code cache");
    const answer = run(["recall", "--scope", "global", "which port does postgres use"]);
    expect(answer.status, answer.stderr).toBe(0);
    expect(answer.stdout).toContain("5433");
    expect(readFileSync(cache, "utf8")).not.toBe("not a code cache");
  });

  it("keeps the newest few builds' caches, and none at all under NODE_DISABLE_COMPILE_CACHE", () => {
    const { cache, run } = setup();
    const folder = join(cache, "cairn", "code-cache");
    // Five older builds, the first the oldest: with this one, the newest four are kept.
    const older = [0, 1, 2, 3, 4].map((n) => {
      const build = `cairn-build-${String(n).repeat(16)}`;
      mkdirSync(join(folder, build), { recursive: true });
      writeFileSync(join(folder, build, "old.bin"), "x");
      utimesSync(join(folder, build), new Date(1_000_000 * (n + 1)), new Date(1_000_000 * (n + 1)));
      return build;
    });
    mkdirSync(join(folder, "not-a-build"));
    expect(run(["recall", "--scope", "global", "postgres"]).status).toBe(0);
    expect(readdirSync(folder).sort()).toEqual([buildId(), ...older.slice(2), "not-a-build"].sort());

    const off = setup();
    expect(off.run(["recall", "--scope", "global", "postgres"], { NODE_DISABLE_COMPILE_CACHE: "1" }).status).toBe(0);
    // The remember of setup() ran with caches on; the recall without made none.
    expect(existsSync(off.file("remember"))).toBe(true);
    expect(existsSync(off.file("recall"))).toBe(false);
  });

  it("runs the command when the cache folder cannot be written", () => {
    const { cache, run, file } = setup();
    chmodSync(cache, 0o500);
    try {
      const answer = run(["recall", "--scope", "global", "which port does postgres use"]);
      expect(answer.status, answer.stderr).toBe(0);
      expect(answer.stderr).toBe("");
      expect(answer.stdout).toContain("5433");
      // Root ignores the folder's mode: only an ordinary user sees nothing written.
      if (process.getuid?.() !== 0) expect(existsSync(file("recall"))).toBe(false);
    } finally {
      chmodSync(cache, 0o700);
    }
  });

  it("names a file by a plain command word only", () => {
    expect(codeCacheFile("/c", "cairn-build-0123456789abcdef", "recall")).toMatch(/-recall\.bin$/);
    expect(codeCacheFile("/c", "cairn-build-0123456789abcdef", "../../etc/x")).toMatch(/-other\.bin$/);
    expect(codeCacheFile("/c", "cairn-build-0123456789abcdef", undefined)).toMatch(/-other\.bin$/);
  });
});
