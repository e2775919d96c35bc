import { copyFileSync, existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { Cairn } from "../../src/cairn.js";
import { demoConfig } from "../../src/cli/demo.js";
import { validateConfig } from "../../src/config/load.js";
import { renderWindows } from "../../src/pipeline/phase1/renderSession.js";
import { storedItems } from "../../src/pipeline/phase1/storedItems.js";
import { guardText } from "../../src/redact/index.js";
import { tempDir } from "../helpers/tempDir.js";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
const transcripts = resolve(repoRoot, "../shared/fixtures/transcripts");
const exists = existsSync(transcripts);
const LEGACY_ROLLOUT = "legacy-format_rollout-2025-08-06T18-02-11-05997ac9-0e06-4251-8576-cc16266d3022.jsonl";
if (!exists) console.warn(`real-transcript windows suite skipped: ${transcripts} (../shared) is absent`);

/**
 * What a model receives of each real session, at the default budget: every user message and every
 * compaction summary, whatever the session's length, in one call or in several. (The longest
 * fixture session kept 16 of its 88 user messages when the budget cut its middle.)
 */
describe.skipIf(!exists)("stage-1 input of real transcripts", () => {
  it("holds every user message and every compaction summary of every session whole, each window within the budget, and marks failures shown only in the output as failed", async () => {
    const cairn = new Cairn({ home: tempDir("cairn-real-windows-"), config: demoConfig, env: {} });
    try {
      const sources = ["pi", "omp", "codex", "claude-code", "gemini", "opencode"] as const;
      // The legacy Codex rollout is stored under a descriptive name: laid out as Codex names its files.
      const legacy = tempDir("cairn-real-windows-codex-");
      copyFileSync(
        join(transcripts, "codex", LEGACY_ROLLOUT),
        join(legacy, LEGACY_ROLLOUT.replace(/^legacy-format_/, "")),
      );
      const overrides = Object.fromEntries(sources.map((agent) => [agent, [join(transcripts, agent)]]));
      await cairn.scan({ overrides: { ...overrides, codex: [...overrides.codex!, legacy] } });
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
      let failures = 0;
      let flaglessFailures = 0;
      for (const session of sessions) {
        const windows = renderWindows(storedItems(cairn.storage.items, session.id), options);
        if (windows.length > 1) split++;
        const sent = new Map(windows.flatMap((window) => window.entries.map((entry) => [entry.id, entry] as const)));
        for (const window of windows) expect(window.tokens ?? 0).toBeLessThanOrEqual(extraction.maxInputTokens);
        for (const item of cairn.storage.items.list(session.id)) {
          const where = `${session.agent} ${session.id}: ${item.role} item ${item.id}`;
          // Codex's older rollouts report a sandbox failure in the output (the adapter flags it); omp keeps
          // no flag for a build whose output ends in npm's error block: both reach the model as failed.
          if (item.role === "tool_result" && /^(?:failed in sandbox|npm error command failed)\b/.test(item.text)) {
            if (!item.isError) flaglessFailures++;
            failures++;
            // Failed results are kept before ordinary outputs: each is sent, and marked.
            expect(sent.get(item.id)?.failed, where).toBe(true);
          }
          if ((item.role !== "user" && item.role !== "compaction") || item.text.trim() === "") continue;
          if (item.role === "user") userMessages++;
          else compactions++;
          expect(sent.get(item.id)?.text, where).toBe(guardText(item.text.trim()));
        }
      }
      expect(failures).toBeGreaterThanOrEqual(4);
      expect(flaglessFailures).toBeGreaterThanOrEqual(1);
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
