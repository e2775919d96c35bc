import { describe, expect, it } from "vitest";
import { consolidationPrompt } from "../../src/pipeline/phase2/consolidators/consolidationPrompt.js";
import { consolidateOffline } from "../../src/pipeline/phase2/consolidators/offlineConsolidator.js";
import { reportsFailure } from "../../src/pipeline/phase2/consolidators/offlineSummary.js";
import { openWorkOf } from "../../src/pipeline/phase2/openWork.js";
import type { ExtractedFact, Stage1Output } from "../../src/store/types/stage1Output.js";
import { SUMMARY_INDEX_SECTIONS, summaryHoldsKnowledge } from "../../src/workspace/summarySections.js";

const DAY = 86_400_000;
const MAY_1 = Date.parse("2026-05-01T10:00:00Z");

function session(
  sessionId: string,
  at: number,
  facts: Array<[ExtractedFact["type"], string]>,
  rawMemory = "",
): Stage1Output {
  return {
    sessionId,
    projectKey: "git:example.com/acme/shop",
    cwd: "/src/shop",
    agent: "codex",
    sourceUpdatedAt: at,
    itemFrom: null,
    itemTo: null,
    generator: "offline",
    generatedAt: at,
    usageCount: 0,
    lastUsage: null,
    selectedForPhase2: false,
    selectedForPhase2SourceUpdatedAt: null,
    rolloutSummary: "Worked on the shop.",
    rolloutSlug: null,
    rawMemory,
    facts: facts.map(([type, content]) => ({ content, type, confidence: 0.8, evidence: [] })),
    entities: [],
  };
}

function consolidate(inputs: Stage1Output[], kind: "project" | "global" = "project") {
  return consolidateOffline(
    {
      workspace: { key: kind === "global" ? "global" : "git:example.com/acme/shop", kind, name: "shop", dir: "" },
      dir: "",
      root: "",
      previous: { memory: null, summary: null },
      diff: { added: [], retained: [], removed: [] },
      summaryFiles: new Map(inputs.map((input) => [input.sessionId, `rollout_summaries/${input.sessionId}.md`])),
      stale: [],
      now: MAY_1 + 10 * DAY,
    },
    inputs,
  );
}

/** The section headings of a summary, in order, and the lines under one of them. */
const headings = (text: string) => [...text.matchAll(/^## (.*)$/gm)].map((m) => m[1]);
const section = (text: string, title: string) =>
  (text.split(`## ${title}\n`)[1] ?? "").split("\n\n")[0]!.split("\n").filter(Boolean);

describe("the offline memory_summary.md", () => {
  const older = session(
    "s1",
    MAY_1,
    [
      ["preference", "Keep commits small and focused."],
      ["procedural", "Command that worked: `make check`"],
      ["fact", '`make build` failed with "missing header zlib.h"; `make deps && make build` later succeeded.'],
      ["decision", "We chose SQLite over Postgres for the local cache."],
    ],
    "## Task\n- Add caching\n\n## Open work\n- The cache eviction test is still skipped\n",
  );
  const newer = session(
    "s2",
    MAY_1 + 3 * DAY,
    [
      ["fact", "The HTTP server listens on port 8088."],
      ["procedural", "Command that worked: `make check`"],
      ["semantic", "Release notes live in docs/CHANGES.md."],
    ],
    "## Outcome\n- Stopped before the migration ran\n\n## Pending tasks\n- Run the migration on staging\n  and check the row counts\n- Tag v2.1 once staging is green\n\n## Keywords\n- cache, migration\n",
  );
  const summary = consolidate([older, newer]).summary;

  it("lists decisions, key facts, pitfalls and open work before preferences and tips, between the profile and the index", () => {
    expect(headings(summary)).toEqual([
      "Profile",
      "Decisions in force",
      "Key facts of the project",
      "Pitfalls and fixes",
      "Open work",
      "User preferences",
      "Tips",
      "What is in memory",
    ]);
  });

  it("dates every entry with the day it was last said", () => {
    expect(section(summary, "Decisions in force")).toEqual([
      "- 2026-05-01: We chose SQLite over Postgres for the local cache.",
    ]);
    expect(section(summary, "Key facts of the project")).toEqual([
      "- 2026-05-04: The HTTP server listens on port 8088.",
      "- 2026-05-04: Release notes live in docs/CHANGES.md.",
    ]);
    expect(section(summary, "Pitfalls and fixes")).toEqual([
      '- 2026-05-01: `make build` failed with "missing header zlib.h"; `make deps && make build` later succeeded.',
    ]);
    expect(section(summary, "Tips")).toEqual(["- 2026-05-04: Command that worked: `make check` (2x)"]);
    expect(section(summary, "User preferences")).toEqual(["- 2026-05-01: Keep commits small and focused."]);
  });

  it("takes open work from the raw memories' open-work sections, newest session first, one line an item", () => {
    expect(section(summary, "Open work")).toEqual([
      "- 2026-05-04: Run the migration on staging and check the row counts",
      "- 2026-05-04: Tag v2.1 once staging is green",
      "- 2026-05-01: The cache eviction test is still skipped",
    ]);
    expect(consolidate([older, newer]).memory).toContain(
      "## Open work\n- 2026-05-04: Run the migration on staging and check the row counts [rollout_summaries/s2.md]",
    );
  });

  it("holds knowledge when a session taught something, and none when it only ran", () => {
    expect(summaryHoldsKnowledge(summary.replace(/^v1\n/, ""))).toBe(true);
    const empty = consolidate([session("s3", MAY_1, [], "## Task\n- Look around\n")]).summary;
    expect(headings(empty)).toEqual(["Profile", "What is in memory"]);
    expect(summaryHoldsKnowledge(empty.replace(/^v1\n/, ""))).toBe(false);
  });

  it("leaves open work out of the global summary", () => {
    expect(headings(consolidate([newer], "global").summary)).not.toContain("Open work");
  });
});

describe("the consolidation prompts", () => {
  it.each(["consolidation_system.md", "consolidation_agent.md"] as const)(
    "%s asks a model for the summary's sections in the offline order, and names the index sections the read path skips",
    (name) => {
      // The prompt as a model receives it: the file with the shared consolidation rules it includes.
      const prompt = consolidationPrompt(name, 1000, { workspace: "memory of project shop" }).replace(/\s+/g, " ");
      const summary = consolidateOffline(
        {
          workspace: { key: "k", kind: "project", name: "shop", dir: "" },
          dir: "",
          root: "",
          previous: { memory: null, summary: null },
          diff: { added: [], retained: [], removed: [] },
          summaryFiles: new Map(),
          stale: [],
          now: MAY_1,
        },
        [],
      ).summary;
      const offline = [
        "Profile",
        "Decisions in force",
        "Key facts of the project",
        "Pitfalls and fixes",
        "Open work",
        "User preferences",
        "Tips",
        "What is in memory",
      ];
      const positions = offline.map((title) => prompt.indexOf(`\`${title}\``));
      expect(positions.every((at) => at >= 0)).toBe(true);
      expect([...positions].sort((a, b) => a - b)).toEqual(positions);
      for (const title of SUMMARY_INDEX_SECTIONS) expect(summary).toContain(`## ${title}\n`);
      expect(prompt).toContain(`write only \`${SUMMARY_INDEX_SECTIONS[0]}\` and \`${SUMMARY_INDEX_SECTIONS[1]}\``);
      expect(prompt).toContain("`- YYYY-MM-DD: ...`");
    },
  );
});

describe("reportsFailure", () => {
  it("reads what a statement says, not the command or output it quotes", () => {
    expect(reportsFailure('`npm test` failed with "Error: boom"; `npm test` later succeeded.')).toBe(true);
    expect(reportsFailure("The build breaks when NODE_ENV is unset; set it to development.")).toBe(true);
    expect(reportsFailure("The logs go to `error.log` in the data folder.")).toBe(false);
    expect(reportsFailure("Error and fix: the propagator setter is undefined; configure it in the app env.")).toBe(
      true,
    );
    expect(reportsFailure("Spans carry attributes, an error status and the trace id.")).toBe(false);
    expect(reportsFailure("Telemetry failures must never crash the app.")).toBe(false);
    expect(
      reportsFailure('The health check answers "error" only when the database is down? No: it says "degraded".'),
    ).toBe(false);
  });
});

describe("openWorkOf", () => {
  it("reads every section whose heading names open work and nothing else", () => {
    const raw = [
      "## Outcome",
      "- Tests pass",
      "## Next steps",
      "1. Publish the package",
      "## Failures and fixes",
      "- `npm ci` failed",
      "### Unfinished",
      "* Docs for the new flag",
    ].join("\n");
    expect(openWorkOf({ rawMemory: raw, facts: [] })).toEqual(["Publish the package", "Docs for the new flag"]);
    expect(openWorkOf({ rawMemory: "## Task\n- Fix the login bug\n", facts: [] })).toEqual([]);
  });

  it("adds the facts labelled as open work, each once", () => {
    const fact = (content: string) => ({ content, type: "fact" as const, confidence: 0.7, evidence: [] });
    const output = {
      rawMemory: "## Open work\n- Open work: the session stopped before the release notes were written.\n",
      facts: [
        fact("Open work: the session stopped before the release notes were written."),
        fact("Open work (at the session's compaction): v2.1 is tagged but not published"),
        fact("The release script lives in scripts/release.sh"),
      ],
    };
    expect(openWorkOf(output)).toEqual([
      "Open work: the session stopped before the release notes were written.",
      "Open work (at the session's compaction): v2.1 is tagged but not published",
    ]);
    const summary = consolidate([{ ...session("s4", MAY_1, []), ...output }]).summary;
    expect(section(summary, "Open work")).toEqual([
      "- 2026-05-01: Open work: the session stopped before the release notes were written.",
      "- 2026-05-01: Open work (at the session's compaction): v2.1 is tagged but not published",
    ]);
    expect(section(summary, "Key facts of the project")).toEqual([
      "- 2026-05-01: The release script lives in scripts/release.sh",
    ]);
  });
});

describe("MEMORY.md says how the latest sessions ended, as the agent reported it", () => {
  it("lists each session's outcome, newest first, dated and cited, and none in the global handbook", () => {
    const first = session(
      "s1",
      MAY_1,
      [],
      "## Task\n- Add caching\n\n## Outcome\n- Added an LRU cache in front of the\n  price lookup.\n",
    );
    const second = session("s2", MAY_1 + DAY, [], "## Outcome\n- Could not reproduce the timeout locally.\n");
    const { memory } = consolidate([first, second]);
    expect(section(memory, "How the latest sessions ended (the agent's own report, not verified)")).toEqual([
      "- 2026-05-02: Could not reproduce the timeout locally. [rollout_summaries/s2.md]",
      "- 2026-05-01: Added an LRU cache in front of the price lookup. [rollout_summaries/s1.md]",
    ]);
    expect(consolidate([first, second], "global").memory).not.toContain("How the latest sessions ended");
  });
});
