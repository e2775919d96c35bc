import { describe, expect, it } from "vitest";
import { mergeFacts } from "../../src/pipeline/phase2/consolidators/mergeFacts.js";
import type { Stage1Output } from "../../src/store/types/stage1Output.js";

function output(sessionId: string, sourceUpdatedAt: number, facts: string[]): Stage1Output {
  return {
    sessionId,
    projectKey: "git:example.com/acme/shop",
    cwd: null,
    agent: "codex",
    sourceUpdatedAt,
    itemFrom: null,
    itemTo: null,
    generator: "offline",
    generatedAt: sourceUpdatedAt,
    usageCount: 0,
    lastUsage: null,
    selectedForPhase2: false,
    selectedForPhase2SourceUpdatedAt: null,
    rolloutSummary: "",
    rolloutSlug: null,
    rawMemory: "",
    facts: facts.map((content) => ({ content, type: "fact", confidence: 0.8, evidence: [] })),
    entities: [],
  };
}

describe("mergeFacts", () => {
  it("ranks by support, then by how recently a statement was said (the sections are cut to a length)", () => {
    const merged = mergeFacts(
      [
        output("old", 1_000, ["Assets are served from the CDN bucket.", "Builds use make."]),
        output("new", 2_000, ["The API listens on port 8080.", "Builds use make."]),
      ],
      ["fact"],
    );
    expect(merged.map((s) => s.text)).toEqual([
      "Builds use make.",
      "The API listens on port 8080.",
      "Assets are served from the CDN bucket.",
    ]);
    expect(merged[0]?.sessions).toEqual(["new", "old"]);
  });
});
