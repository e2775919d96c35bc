import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/**
 * The two tiers of `npm test`: suites that run in the test process first (vitest.config.ts), then the
 * suites that start processes (vitest.processes.config.ts): the CLI, node, git, fake agent executables.
 * A suite is in the process tier when it, or a test helper it imports, imports node:child_process,
 * starts a server over stdio, or writes an executable script (a fake `claude` or `codex` the code under
 * test runs). Nothing to list by hand: a new suite lands in its tier by what it does.
 */
const ROOT = resolve(import.meta.dirname, "..", "..");
const OUTSIDE = ["test/chaos/", "test/package/", "test/ui/"];
const SPAWNS = [
  /from "node:child_process"/,
  // A server started over stdio (the MCP SDK's client spawns it).
  /command: process\.execPath|StdioClientTransport/,
  /#!\$\{process\.execPath\}|#!\/usr\/bin\/env |#!\/bin\/(ba)?sh/,
];
const RELATIVE_IMPORT = /(?:from|import\()\s*"(\.{1,2}\/[^"]+)"/g;

function testFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

/** Whether a file under test/ spawns, directly or through the test helpers it imports (not src/). */
function spawns(file: string, seen: Map<string, boolean>): boolean {
  const known = seen.get(file);
  if (known !== undefined) return known;
  seen.set(file, false);
  const text = readFileSync(file, "utf8");
  let result = SPAWNS.some((pattern) => pattern.test(text));
  for (const match of text.matchAll(RELATIVE_IMPORT)) {
    if (result) break;
    const target = resolve(dirname(file), match[1]!.replace(/\.js$/, ".ts"));
    if (target.startsWith(join(ROOT, "test")) && existsSync(target)) result = spawns(target, seen);
  }
  seen.set(file, result);
  return result;
}

/** The suites of the process tier, as paths relative to the repository (vitest's include globs). */
export function processSuites(): string[] {
  const seen = new Map<string, boolean>();
  return testFiles("test")
    .filter((file) => !OUTSIDE.some((prefix) => file.startsWith(prefix)))
    .filter((file) => spawns(join(ROOT, file), seen))
    .map((file) => relative(ROOT, join(ROOT, file)))
    .sort();
}
