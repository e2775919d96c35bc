import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { Cairn } from "../../src/cairn.js";
import { demoConfig } from "../../src/cli/demo.js";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
const transcripts = resolve(repoRoot, "../shared/fixtures/transcripts");
const exists = existsSync(transcripts);
if (!exists) console.warn(`real-transcript preference suite skipped: ${transcripts} (../shared) is absent`);

/**
 * The offline pipeline over the real transcripts of five agents (a pi-mono session among them):
 * their user messages are mostly requests about the task at hand, which must not become preferences,
 * least of all in the global summary that every project receives.
 */
describe.skipIf(!exists)("preferences from real transcripts", () => {
  it("keeps task requests, list fragments and transcript paths out of every workspace's preferences", async () => {
    const home = mkdtempSync(join(tmpdir(), "cairn-real-prefs-"));
    const cairn = new Cairn({ home, config: { ...demoConfig, "memories.maxUnusedDays": 3650 }, env: {} });
    try {
      const sources = ["pi", "omp", "codex", "claude-code", "gemini"] as const;
      await cairn.run({
        scan: { overrides: Object.fromEntries(sources.map((agent) => [agent, [join(transcripts, agent)]])) },
      });
      const projects = join(cairn.paths.memories, "projects");
      const summaries = [
        join(cairn.paths.memories, "global", "memory_summary.md"),
        ...readdirSync(projects).map((name) => join(projects, name, "memory_summary.md")),
      ].filter(existsSync);
      expect(summaries.length).toBeGreaterThan(1);
      const preferences = summaries.flatMap(
        (file) => /## User preferences\n([\s\S]*?)(?:\n\n|$)/.exec(readFileSync(file, "utf8"))?.[1]?.split("\n") ?? [],
      );
      // The date each entry carries ("- 2026-05-01: ...") is not part of what was said.
      const said = preferences.map((line) => line.replace(/^- \d{4}-\d{2}-\d{2}: /, "- "));
      expect(said.every((line, i) => line !== preferences[i])).toBe(true);
      for (const line of said) {
        expect(line).not.toMatch(/^- [-*] /);
        expect(line).not.toMatch(/\.jsonl\b|\/sessions\//);
        expect(line).not.toMatch(/^- (?:i want you to|propose|read|create|ok,? let me)\b/i);
      }
      // Nothing in these sessions is stated for all projects, and no preference recurs across them.
      expect(existsSync(join(cairn.paths.memories, "global", "memory_summary.md"))).toBe(false);
    } finally {
      cairn.close();
      rmSync(home, { recursive: true, force: true });
    }
  });
});
