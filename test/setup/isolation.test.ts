import { homedir, tmpdir } from "node:os";
import { relative } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { cairnHome } from "../../src/config/paths.js";
import { scanTargets } from "../../src/sources/registry.js";
import { runCli } from "../helpers/runCli.js";
import { tempDir } from "../helpers/tempDir.js";

const root = inject("isolatedRoot");
const inside = (path: string) => !relative(root, path).startsWith("..");

// Without the run's isolated environment, a test that scans default agent folders reads the
// developer's real ~/.claude and ~/.codex (and fails for anyone with recent sessions).
describe("the test environment", () => {
  it("puts the home, the temp dir, cairn's memory root and every agent's default folder in the run's folder", () => {
    expect(inside(homedir()), homedir()).toBe(true);
    expect(inside(tmpdir()), tmpdir()).toBe(true);
    expect(inside(cairnHome(process.env))).toBe(true);
    for (const target of scanTargets({})) {
      for (const path of target.roots) expect(inside(path), `${target.adapter.agent}: ${path}`).toBe(true);
    }
  });

  it("is inherited by the CLI a test spawns", () => {
    const result = runCli(["doctor", "--json"], { env: { CAIRN_HOME: tempDir("cairn-doctor-") } });
    expect(result.status, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as { home: string; sources: Array<{ roots: Array<{ path: string }> }> };
    expect(inside(report.home), report.home).toBe(true);
    const roots = report.sources.flatMap((source) => source.roots.map((entry) => entry.path));
    expect(roots.length).toBeGreaterThan(0);
    expect(roots.filter((path) => !inside(path))).toEqual([]);
  });
});
