import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { Cairn } from "../../src/cairn.js";
import { demoConfig } from "../../src/cli/demo.js";
import { tempDir } from "../helpers/tempDir.js";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
const transcripts = resolve(repoRoot, "../shared/fixtures/transcripts");
const exists = existsSync(transcripts);
if (!exists) console.warn(`real-transcript facts suite skipped: ${transcripts} (../shared) is absent`);

/**
 * The offline extractor over the real transcripts of five agents. Their assistants write many
 * sentences that read like facts and decisions ("Footer now uses dim instead of muted", "Now both
 * inline code and code blocks will use #8abeb7"); none may become a memory. What the sessions show
 * by their tool results (commands that worked, failures and their fixes) must still be kept.
 */
describe.skipIf(!exists)("facts from real transcripts", () => {
  it("takes preferences, decisions and stated facts from user turns only, and keeps commands and fixes", async () => {
    const cairn = new Cairn({
      home: tempDir("cairn-real-facts-"),
      config: { ...demoConfig, "memories.maxUnusedDays": 3650 },
      env: {},
    });
    try {
      const sources = ["pi", "omp", "codex", "claude-code", "gemini", "opencode"] as const;
      await cairn.run({
        scan: { overrides: Object.fromEntries(sources.map((agent) => [agent, [join(transcripts, agent)]])) },
      });
      const roleOf = cairn.storage.db.prepare("SELECT role FROM items WHERE id = ?");
      const facts = cairn.storage.stage1.all().flatMap((output) => output.facts);
      const counts = (type: string) => facts.filter((fact) => fact.type === type).length;
      expect(counts("procedural")).toBeGreaterThan(0);
      expect(counts("fact")).toBeGreaterThan(0);
      for (const fact of facts.filter((f) => ["preference", "decision", "fact"].includes(f.type))) {
        const roles = fact.evidence.map((id) => (roleOf.get(id) as { role: string }).role);
        // A failure and its fix cite the two tool calls, a change the write's result, a summary's entry its
        // compaction; every other statement cites what the user wrote, never the agent's words.
        expect(
          roles.every((role) => ["user", "tool_call", "tool_result", "compaction"].includes(role)),
          fact.content,
        ).toBe(true);
        if (!fact.content.startsWith("Changed (agent-reported)"))
          expect(roles.includes("assistant"), fact.content).toBe(false);
      }
    } finally {
      cairn.close();
    }
  });
});
