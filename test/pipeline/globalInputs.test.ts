import { describe, expect, it } from "vitest";
import type { Stage1Output } from "../../src/pipeline/phase1/types.js";
import { globalInputs } from "../../src/pipeline/phase2/consolidationInputs.js";

function output(projectKey: string, facts: Stage1Output["facts"]): Stage1Output {
  return {
    sessionId: `s-${projectKey}`,
    projectKey,
    cwd: null,
    agent: "codex",
    sourceUpdatedAt: 1,
    itemFrom: 1,
    itemTo: 2,
    generator: "model",
    generatedAt: 1,
    usageCount: 0,
    lastUsage: null,
    selectedForPhase2: false,
    selectedForPhase2SourceUpdatedAt: null,
    rolloutSummary: "Themes reworked.",
    rolloutSlug: "themes",
    rawMemory: "## Facts\n- The theme schema lives in theme.json.",
    entities: [],
    facts,
  };
}

const preference = (content: string, scope?: "project" | "global"): Stage1Output["facts"][number] => ({
  content,
  type: "preference",
  confidence: 0.9,
  evidence: [1],
  ...(scope ? { scope } : {}),
});

describe("what the global workspace learns from a session", () => {
  it("follows the model's scope, and the wording only where the model gave none", () => {
    const [input] = globalInputs([
      output("git:example.com/tui", [
        preference("The user always wants invalid themes to fail soft.", "project"),
        preference("Answer in short paragraphs without headings.", "global"),
        preference("In all my projects I use conventional commit messages."),
      ]),
    ]);
    expect(input?.facts.map((fact) => fact.content)).toEqual([
      "Answer in short paragraphs without headings.",
      "In all my projects I use conventional commit messages.",
    ]);
    expect(input?.rawMemory).not.toContain("theme");
  });
});
