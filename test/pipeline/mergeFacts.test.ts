import { describe, expect, it } from "vitest";
import { mergeFacts } from "../../src/pipeline/phase2/consolidators/mergeFacts.js";
import { consolidateOffline } from "../../src/pipeline/phase2/consolidators/offlineConsolidator.js";
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

describe("the offline MEMORY.md", () => {
  it("lists at most 40 entries a section, the best supported and newest first, and says how many it left out", () => {
    const commands = Array.from({ length: 55 }, (_, i) => `Command that worked: \`make target-${i}\``);
    const sessions = commands.map((command, i) => ({
      ...output(`s${i}`, 1_000 + i, []),
      facts: [{ content: command, type: "procedural" as const, confidence: 0.7, evidence: [] }],
    }));
    const files = consolidateOffline(
      {
        workspace: { key: "git:example.com/acme/shop", kind: "project", name: "shop", dir: "" },
        dir: "",
        root: "",
        previous: { memory: null, summary: null },
        diff: { added: [], retained: [], removed: [] },
        summaryFiles: new Map(),
        stale: [],
        now: 10_000,
      },
      sessions,
    );
    const procedures = files.memory.split("## Procedures\n")[1]!.split("\n\n")[0]!.split("\n");
    expect(procedures).toHaveLength(41);
    expect(procedures[0]).toBe("- Command that worked: `make target-54`");
    expect(procedures[39]).toBe("- Command that worked: `make target-15`");
    expect(procedures[40]).toBe("- (15 older or less supported not listed; `cairn recall` finds them)");
  });
});
