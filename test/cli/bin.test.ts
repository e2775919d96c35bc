import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../helpers/tempDir.js";
import { spawnSyncTimed } from "../helpers/timedSpawn.js";

const root = join(import.meta.dirname, "..", "..");
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string; bin: { cairn: string } };
const bin = join(root, pkg.bin.cairn);
const built = existsSync(bin);
if (!built) console.warn(`built CLI suite skipped: ${bin} is missing (run npm run build)`);

// `npx cairn` in a clone executes the package's bin file directly, as a program.
describe.skipIf(!built)("the built CLI", () => {
  it("runs as a program, the way npx starts it", () => {
    const result = spawnSyncTimed(bin, ["--version"], { encoding: "utf8" });
    expect(result.error?.message).toBeUndefined();
    expect(result.stdout.trim()).toBe(pkg.version);
  });

  it("finds the word vectors it ships: a recall embeds its question without a warning", () => {
    const home = tempDir("cairn-bin-");
    const env = {
      PATH: process.env.PATH ?? "",
      HOME: home,
      CAIRN_HOME: join(home, "cairn"),
      CAIRN_RESIDENT_IDLE_MINUTES: "0",
    };
    const run = (args: string[]) => spawnSyncTimed(bin, args, { encoding: "utf8", env, cwd: home });
    expect(run(["remember", "--scope", "global", "Unit tests run with jest"]).status).toBe(0);
    const recall = run(["recall", "--scope", "global", "--json", "which test runner, vitest?"]);
    expect(recall.status, recall.stderr).toBe(0);
    const answer = JSON.parse(recall.stdout) as {
      results: { content: string; sources: string[] }[];
      warnings?: string[];
    };
    expect(answer.warnings ?? []).toEqual([]);
    expect(answer.results[0]?.sources).toContain("vector");
  });

  // The bundle loads the TOML library's WebAssembly from beside itself: the source run through tsx finds
  // it in node_modules, so only the built bin shows whether it was shipped.
  it.each(["codex", "claude-code"])("installs and uninstalls %s into a fresh home", (agent) => {
    const home = tempDir("cairn-bin-");
    const env = {
      PATH: process.env.PATH ?? "",
      HOME: home,
      CAIRN_HOME: join(home, "cairn"),
      CAIRN_RESIDENT_IDLE_MINUTES: "0",
    };
    const run = (args: string[]) => spawnSyncTimed(bin, args, { encoding: "utf8", env, cwd: home });
    const config = join(home, agent === "codex" ? ".codex/config.toml" : ".claude/settings.json");
    const install = run(["install", agent]);
    expect(install.stderr).toBe("");
    expect(install.status).toBe(0);
    expect(readFileSync(config, "utf8")).toContain(agent === "codex" ? "[mcp_servers.cairn]" : "session-start");
    const uninstall = run(["uninstall", agent]);
    expect(uninstall.stderr).toBe("");
    expect(uninstall.status).toBe(0);
    expect(existsSync(config) ? readFileSync(config, "utf8") : "").not.toContain("cairn");
  });
});
