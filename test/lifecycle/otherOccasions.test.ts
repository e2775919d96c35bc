import { describe, expect, it } from "vitest";
import { defaultRecallConfig } from "../../src/config/recallConfig.js";
import { judgeSupersession } from "../../src/memory/lifecycle/judgeSupersession.js";
import { MemoryStore } from "../../src/memory/memoryStore.js";
import { detectSyntacticContradiction } from "../../src/pipeline/facts/contradiction.js";
import { doubtedStatements } from "../../src/pipeline/phase2/staleKnowledge.js";
import { createHashedEmbeddingProvider } from "../../src/providers/embeddings/hashedEmbedding.js";
import { createRecall } from "../../src/recall/createRecall.js";
import { Storage } from "../../src/store/storage.js";
import { aboutOtherOccasions, reportedOccasion } from "../../src/text/reportedOccasion.js";
import { StaleMatcher, type StaleStatement } from "../../src/workspace/staleStatements.js";

// Two reports of what ran are about different subjects when they name different commands or
// different errors: each is a record of an occasion, true as seen, and neither can replace the
// other. No detector may supersede or doubt one with the other, and no summary line about one is
// marked "may be out of date" with the other.

/** Pairs (newer, older) about different commands or different errors. */
const OTHER_OCCASIONS: Array<[string, string]> = [
  // Two commands that failed the same way in a sandbox.
  [
    "`mix dialyzer` fails with a sandbox error (exit code 2); run it with --no-sandbox.",
    "`mix test` fails with a sandbox error (exit code 1); run it with --no-sandbox.",
  ],
  // One error code, two services down.
  [
    "Error: ECONNREFUSED 127.0.0.1:6379 when the tests start; start Redis first.",
    "Error: ECONNREFUSED 127.0.0.1:5432 when the tests start; start Postgres first.",
  ],
  // A compile error of one command, a missing file of another; one holds a "no".
  [
    '`cp templates/dark.json ~/.config/app/theme.json` failed with "cp: templates/dark.json: No such file or directory"; `cp src/theme/dark.json ~/.config/app/theme.json` later succeeded.',
    '`cd packages/app && npm run check` failed with "src/ui.ts(28,2): error TS2739: Type is missing properties"; `npm run check` later succeeded.',
  ],
  // One command, two different errors.
  [
    '`npm run build` failed with "error TS2322: Type string is not assignable to type number"',
    '`npm run build` failed with "error TS2307: Cannot find module ./theme.js"',
  ],
  // Two sessions' records of the files the agent wrote.
  [
    "Files the agent wrote (agent-reported): src/ui/renderer.ts, src/theme/dark.json.",
    "Files the agent wrote (agent-reported): docs/refactor.md.",
  ],
  // Two things the user said, about other things: only the frame around the quotes is shared.
  [
    'The user corrected the agent: "no debug prints in the library code, return an error instead"',
    'The user corrected the agent: "keep the changelog in reverse date order, newest first"',
  ],
  // A command that failed against another that worked.
  ["`cargo check --workspace` timed out and failed in the sandbox", "Command that worked: `cargo test -p core`"],
];

/** Pairs that stay one subject: the same command and the same error, or failures told in words only. */
const SAME_SUBJECT: Array<[string, string]> = [
  ["`make deploy` does not work from a laptop", "`make deploy` works from a laptop"],
  ["`mix test` passes again since the fixtures were regenerated", '`mix test` fails with "no fixture users.json"'],
  [
    '`npm run build` no longer fails with "error TS2307: Cannot find module"',
    '`npm run build` fails with "error TS2307: Cannot find module"',
  ],
  ["The build fails when the heap limit is below 8192 MB", "The build fails when the heap limit is below 4096 MB"],
  // The same saying with one word changed is judged by the detectors.
  ['The user said: "always use pnpm for installs"', 'The user said: "always use npm for installs"'],
  // Where something is written is a setting, not a record of a change.
  ["The config file is written to ~/.config/app/config.json", "The config file is written to ~/.app/config.json"],
];

describe("reports of what ran about other commands or errors", () => {
  it.each(OTHER_OCCASIONS)("are other subjects: %s / %s", (newer, older) => {
    expect(aboutOtherOccasions(reportedOccasion(newer), reportedOccasion(older))).toBe(true);
    expect(judgeSupersession(newer, older)).toBeUndefined();
    expect(judgeSupersession(older, newer)).toBeUndefined();
    expect(detectSyntacticContradiction(newer, older)).toBeNull();
    expect(detectSyntacticContradiction(older, newer)).toBeNull();
  });

  it.each(SAME_SUBJECT)("stay one subject: %s / %s", (newer, older) => {
    expect(aboutOtherOccasions(reportedOccasion(newer), reportedOccasion(older))).toBe(false);
  });

  it("still lets the detectors judge a report against one of the same command or error", () => {
    expect(detectSyntacticContradiction(...SAME_SUBJECT[0]!)?.detector).toBe("syntactic");
    expect(detectSyntacticContradiction(...SAME_SUBJECT[1]!)?.reason).toMatch(/opposite terms pass \/ fail/);
    expect(judgeSupersession(...SAME_SUBJECT[3]!)?.verdict).toBe("supersede");
    expect(judgeSupersession(...SAME_SUBJECT[4]!)?.verdict).toBe("review");
    expect(judgeSupersession(...SAME_SUBJECT[5]!)?.verdict).toBe("supersede");
  });

  it("leave statements that report nothing that ran to the detectors", () => {
    expect(reportedOccasion("Always use pnpm in this repo")).toBeUndefined();
    expect(aboutOtherOccasions(reportedOccasion("Use `pnpm test`"), reportedOccasion("Use `npm test`"))).toBe(false);
  });
});

describe("doubt marks in a summary", () => {
  const AT = Date.parse("2026-06-10T09:00:00.000Z");
  const doubt = (statement: string, replacement: string): StaleStatement => ({
    scope: "path:/srv/app",
    statement,
    replacement,
    at: AT,
    doubted: true,
  });

  it("mark the doubted report and no report of another error of its command", () => {
    const matcher = new StaleMatcher([
      doubt(
        '`npm run build` failed with "error TS2307: Cannot find module ./theme.js"',
        "The theme module moved to src/ui/theme.ts",
      ),
    ]);
    const summary = [
      '- 2026-05-01: `npm run build` failed with "error TS2307: Cannot find module ./theme.js"',
      '- 2026-05-03: `npm run build` failed with "error TS2322: Type string is not assignable to type number"',
    ].join("\n");
    const lines = matcher.revise(summary).text.split("\n");
    expect(lines[0]).toContain("(may be out of date, under review: on 2026-06-10");
    expect(lines[1]).not.toContain("may be out of date");
  });

  it("mark nothing about another command, whatever words the two share", () => {
    const matcher = new StaleMatcher([
      doubt(
        "`mix test` fails with a sandbox error (exit code 1); run it with --no-sandbox.",
        "`mix dialyzer` fails with a sandbox error (exit code 2); run it with --no-sandbox.",
      ),
    ]);
    const line = "- 2026-05-03: `mix format --check-formatted` fails with a sandbox error (exit code 1)";
    expect(matcher.revise(line).text).toBe(line);
  });

  it("come from no review flag an older store holds between reports of different commands", async () => {
    const clock = () => AT;
    const storage = Storage.open(":memory:", {
      dimensions: 64,
      queue: { clock, leaseMs: 60_000, maxAttempts: 3, backoffBaseMs: 1_000, backoffMaxMs: 60_000, random: () => 0 },
    });
    try {
      const embeddings = createHashedEmbeddingProvider({ dimensions: 64 });
      const config = defaultRecallConfig();
      const recall = createRecall({ storage, provider: embeddings, config, clock });
      const store = new MemoryStore({ storage, embeddings, config, clock, recall });
      const id = async (content: string) =>
        (await store.remember({ content, type: "fact", scope: "path:/srv/app" })).id!;
      const [newer, older] = OTHER_OCCASIONS[0]!;
      const flag = { reason: "more than one value differs", detector: "syntactic", now: AT };
      storage.reviews.add({ ...flag, memoryId: await id(older), relatedId: await id(newer) });
      const port = await id("The API listens on port 3000 locally");
      storage.reviews.add({ ...flag, memoryId: port, relatedId: await id("The API listens on port 8080 locally") });
      expect(doubtedStatements(storage, "all").map((entry) => entry.statement)).toEqual([
        "The API listens on port 3000 locally",
      ]);
    } finally {
      storage.close();
    }
  });
});
