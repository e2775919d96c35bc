import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { Cairn } from "../../src/cairn.js";
import { demoConfig } from "../../src/cli/demo.js";
import { validateConfig } from "../../src/config/load.js";
import { renderWindows } from "../../src/pipeline/phase1/renderSession.js";
import { storedItems } from "../../src/pipeline/phase1/storedItems.js";
import { tempDir } from "../helpers/tempDir.js";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
const transcripts = resolve(repoRoot, "../shared/fixtures/transcripts");
const exists = existsSync(transcripts);
if (!exists) console.warn(`real-transcript windows suite skipped: ${transcripts} (../shared) is absent`);

/**
 * What a model receives of each real session, at the default budget: every user message and every
 * compaction summary, whatever the session's length, in one call or in several. (The longest
 * fixture session kept 16 of its 88 user messages when the budget cut its middle.)
 */
describe.skipIf(!exists)("stage-1 input of real transcripts", () => {
  it("holds every user message and every compaction summary of every session, each window within the budget", async () => {
    const cairn = new Cairn({ home: tempDir("cairn-real-windows-"), config: demoConfig, env: {} });
    try {
      const sources = ["pi", "omp", "codex", "claude-code", "gemini", "opencode"] as const;
      await cairn.scan({ overrides: Object.fromEntries(sources.map((agent) => [agent, [join(transcripts, agent)]])) });
      const { extraction } = validateConfig({});
      const options = {
        maxInputTokens: extraction.maxInputTokens,
        toolOutputMaxTokens: extraction.toolOutputMaxTokens,
      };
      const sessions = cairn.storage.sessions.list();
      expect(sessions.length).toBeGreaterThanOrEqual(10);
      let userMessages = 0;
      let compactions = 0;
      let split = 0;
      for (const session of sessions) {
        const windows = renderWindows(storedItems(cairn.storage.items, session.id), options);
        if (windows.length > 1) split++;
        const sent = new Set(windows.flatMap((window) => window.entries.map((entry) => entry.id)));
        for (const window of windows) expect(window.tokens ?? 0).toBeLessThanOrEqual(extraction.maxInputTokens);
        for (const item of cairn.storage.items.list(session.id)) {
          if ((item.role !== "user" && item.role !== "compaction") || item.text.trim() === "") continue;
          if (item.role === "user") userMessages++;
          else compactions++;
          expect(sent.has(item.id), `${session.agent} ${session.id}: ${item.role} item ${item.id}`).toBe(true);
        }
      }
      expect(userMessages).toBeGreaterThan(100);
      expect(compactions).toBeGreaterThan(0);
      console.info(
        `${sessions.length} sessions, ${userMessages} user messages, ${compactions} compactions, ${split} split`,
      );
    } finally {
      cairn.close();
    }
  });
});
