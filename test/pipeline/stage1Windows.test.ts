import { describe, expect, it } from "vitest";
import type { SessionRecord } from "../../src/collection/types.js";
import { buildStage1Prompt, extractSession } from "../../src/pipeline/phase1/extractSession.js";
import { FakeLlm } from "../helpers/fakeLlm.js";
import { itemRecord } from "../helpers/itemRecord.js";

const session = {
  id: "s-long",
  agent: "omp",
  kind: "interactive",
  cwd: "/srv/tui",
  startedAt: 0,
  updatedAt: 86_400_000,
} as SessionRecord;

/** A session whose user messages alone are far over one call's budget. */
const items = Array.from({ length: 240 }, (_, i) =>
  itemRecord(
    i + 1,
    i % 2 ? "assistant" : "user",
    `turn ${i + 1}: ${i === 100 ? "use rgb values in the themes, no indices!" : "adjust the footer colours again"} ${"and keep the layout ".repeat(10)}`,
  ),
);

const answer = (summary: string, fact: string) => ({
  json: {
    rollout_summary: summary,
    rollout_slug: "themes",
    raw_memory: `## Preferences\n- ${fact}`,
    facts: [{ content: fact, type: "preference", scope: "project", confidence: 0.9, evidence: [101], terms: [] }],
    entities: [],
  },
  usage: { inputTokens: 100, outputTokens: 10 },
});

describe("a session longer than one call", () => {
  it("is extracted in windows, each carrying the memory the windows before it wrote", async () => {
    const render = { maxInputTokens: 3000, toolOutputMaxTokens: 100, minFactConfidence: 0.8 };
    const built = buildStage1Prompt(session, items, render);
    expect(built.windows.length).toBeGreaterThan(1);
    const llm = new FakeLlm({
      fallback: (_request, call) =>
        answer(`Summary after window ${call + 1}.`, `Themes use rgb values (window ${call + 1}).`),
    });
    const result = await extractSession({ session, items, llm, render, prompt: built });
    expect(llm.calls).toHaveLength(built.windows.length);
    expect(llm.calls[0]!.prompt).toBe(built.prompt);
    expect(llm.calls[0]!.prompt).not.toContain("MEMORY SO FAR");
    for (const [index, call] of llm.calls.entries()) {
      expect(call.prompt).toContain(`part ${index + 1} of ${built.windows.length}`);
      expect(call.system).toContain("at 0.8 or above");
      if (index > 0) expect(call.prompt).toContain(`Themes use rgb values (window ${index}).`);
    }
    // Every user message reached the model in one window or another; none was cut.
    const sent = llm.calls.map((call) => call.prompt).join("\n");
    for (const item of items.filter((entry) => entry.role === "user"))
      expect(sent).toContain(`"id":${item.id},"role":"user"`);
    expect(result.extraction?.rolloutSummary).toBe(`Summary after window ${built.windows.length}.`);
    expect(result.tokensIn).toBe(100 * built.windows.length);
  });

  it("keeps the earlier windows' memory when a later window's answer is empty", async () => {
    const render = { maxInputTokens: 3000, toolOutputMaxTokens: 100 };
    const built = buildStage1Prompt(session, items, render);
    const llm = new FakeLlm({
      answers: [answer("First part: themes.", "Themes use rgb values.")],
      fallback: { json: { rollout_summary: "", rollout_slug: null, raw_memory: "", facts: [], entities: [] } },
    });
    const result = await extractSession({ session, items, llm, render, prompt: built });
    expect(result.extraction?.rolloutSummary).toBe("First part: themes.");
    expect(result.warnings.at(-1)).toMatch(/window \d+\/\d+: the model answered nothing/);
  });

  it("sends a session that fits as one prompt without window or previous-memory text", () => {
    const built = buildStage1Prompt(session, items.slice(0, 6), { maxInputTokens: 24_000, toolOutputMaxTokens: 300 });
    expect(built.windows).toHaveLength(1);
    expect(built.prompt).not.toMatch(/part \d+ of|MEMORY SO FAR/);
    expect(built.system).toContain("at 0.7 or above");
  });
});
