import { describe, expect, it } from "vitest";
import type { Stage1Output } from "../../src/pipeline/phase1/types.js";
import { renderRawMemories } from "../../src/pipeline/phase2/artifacts.js";
import { consolidationPrompt } from "../../src/pipeline/phase2/consolidators/consolidationPrompt.js";
import { llmConsolidator } from "../../src/pipeline/phase2/consolidators/llmConsolidator.js";
import type { ConsolidationInput } from "../../src/pipeline/phase2/consolidators/types.js";
import { FakeLlm } from "../helpers/fakeLlm.js";

const fact = (content: string, confidence: number, type: Stage1Output["facts"][number]["type"] = "fact") => ({
  content,
  type,
  scope: "project" as const,
  confidence,
  evidence: [4],
});

/** A model-written session: one fact its raw memory repeats, two it states only among its facts. */
function output(generator = "openai:gpt-test"): Stage1Output {
  return {
    sessionId: "s-theme",
    projectKey: "git:example.com/tui",
    cwd: "/srv/tui",
    agent: "omp",
    sourceUpdatedAt: 1_700_000_000_000,
    itemFrom: 1,
    itemTo: 90,
    generator,
    generatedAt: 1,
    usageCount: 0,
    lastUsage: null,
    selectedForPhase2: false,
    selectedForPhase2SourceUpdatedAt: null,
    rolloutSummary: "Themes moved to RGB hex values; the dark theme fix is not verified (uncertain).",
    rolloutSlug: "themes",
    rawMemory: "## Facts\n- Themes are defined in `themes/*.json`.",
    entities: [],
    facts: [
      fact("Themes are defined in `themes/*.json`.", 0.9),
      fact('When choosing theme colours, the user said "no rgb indices!": use RGB hex values.', 0.8, "preference"),
      fact("The agent said the dark theme contrast fix works; no test result showed it.", 0.6),
    ],
  };
}

/** Least confident first: the input is cut to a budget, and what is under the write threshold is stored nowhere else. */
const onlyInFacts = [
  "- (fact, project, confidence 0.6) The agent said the dark theme contrast fix works; no test result showed it.",
  '- (preference, project, confidence 0.8) When choosing theme colours, the user said "no rgb indices!": use RGB hex values.',
];

function input(added: Stage1Output[]): ConsolidationInput {
  return {
    workspace: { key: "git:example.com/tui", kind: "project", name: "tui", dir: "/unused" },
    dir: "/unused",
    root: "/unused",
    previous: { memory: null, summary: null },
    diff: { added, retained: [], removed: [] },
    summaryFiles: new Map([["s-theme", "rollout_summaries/s-theme.md"]]),
    stale: [],
    now: 1_700_000_100_000,
  };
}

describe("the consolidation prompt", () => {
  it("shows the model the facts a session stated only among its facts, with their confidence", async () => {
    const llm = new FakeLlm({
      answers: [{ json: { memory_md: "# Memory\n", memory_summary_md: "v1\n", skills: [] } }],
    });
    await llmConsolidator(llm, { maxInputTokens: 20_000, summaryTokenLimit: 2000 }).consolidate(input([output()]), {
      signal: new AbortController().signal,
      heartbeat: () => true,
    });
    const request = llm.calls[0]!;
    const data = JSON.parse(/<<<MEMORY DATA \w+>>>\n([\s\S]*)\n<<<END MEMORY DATA/.exec(request.prompt)![1]!);
    // The fact below the write threshold reaches no stored memory: this is its only way into the handbook.
    expect(data.added[0].other_facts.split("\n")).toEqual(onlyInFacts);
    expect(data.added[0].raw_memory).toBe("## Facts\n- Themes are defined in `themes/*.json`.");
  });

  it("lists the same facts in raw_memories.md for an agent, and none for the offline extractor's sessions", () => {
    const text = renderRawMemories([output()]);
    expect(text).toContain(`### Other facts (type, scope, confidence)\n${onlyInFacts.join("\n")}\n`);
    expect(renderRawMemories([output("offline")])).not.toContain("Other facts");
  });

  it("gives the model and the agent the same rules: evidence order, quoted preferences, unverified claims, changes, open work, the gate", () => {
    const system = consolidationPrompt("consolidation_system.md", 1234, {});
    const agent = consolidationPrompt("consolidation_agent.md", 1234, { workspace: "memory of project tui" });
    for (const text of [system, agent]) {
      expect(text).not.toMatch(/\{\{\w+\}\}/);
      const prompt = text.replace(/\s+/g, " ");
      expect(prompt).toContain("under 1234");
      expect(prompt).toMatch(
        /1\. the user's own words[\s\S]*2\. what a tool result showed[\s\S]*3\. what the assistant said/,
      );
      expect(prompt).toContain('the user said "<quote>"');
      expect(prompt).toContain('"(unverified)"');
      expect(prompt).toContain('"X is now Y (was Z)"');
      expect(prompt).toContain("`Open work` (what the latest sessions left unfinished");
      expect(prompt).toMatch(/the gate command/);
      expect(prompt).toContain("Do not invent");
    }
    expect(system).toContain('"other_facts"');
    expect(agent).toContain('"Other facts"');
  });
});
