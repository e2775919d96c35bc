import { chmodSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { validateConfig } from "../../src/config/load.js";
import { defaultRecallConfig } from "../../src/config/recallConfig.js";
import { MemoryStore } from "../../src/memory/memoryStore.js";
import type { RememberInput } from "../../src/memory/types.js";
import type { Stage1Output } from "../../src/pipeline/phase1/types.js";
import { agentConsolidator } from "../../src/pipeline/phase2/consolidators/agentConsolidator.js";
import { llmConsolidator } from "../../src/pipeline/phase2/consolidators/llmConsolidator.js";
import { offlineConsolidator } from "../../src/pipeline/phase2/consolidators/offlineConsolidator.js";
import type { Consolidator } from "../../src/pipeline/phase2/consolidators/types.js";
import { runPhase2 } from "../../src/pipeline/phase2/runPhase2.js";
import { createHashedEmbeddingProvider } from "../../src/providers/embeddings/hashedEmbedding.js";
import { OpenAiProvider } from "../../src/providers/llm/openai.js";
import { buildInjection } from "../../src/read/inject.js";
import { createRecall } from "../../src/recall/createRecall.js";
import { Storage } from "../../src/store/storage.js";
import { DAY_MS } from "../../src/util/clock.js";
import { projectWorkspace } from "../../src/workspace/workspacePaths.js";
import { json, type LoopbackServer, startLoopbackServer } from "../helpers/loopbackServer.js";
import { addSession } from "../helpers/store.js";
import { tempDir } from "../helpers/tempDir.js";

const PROJECT = "path:/work/project";
const NPM = "Always use npm in this repo, run the tests with npm test";
const PNPM = "Never use npm here anymore; always use pnpm";
const JEST = "Command that worked: `npx jest src/invoice`";
const VITEST = "Command that worked: `npx vitest run src/invoice`";
const SEED = "Command that worked: `make seed-db`";

/** A line that presents `statement` as current: it holds it and carries no replacement mark. */
function presentsAsCurrent(text: string, needle: string): boolean {
  return text.split("\n").some((line) => line.includes(needle) && !/\((?:replaced|withdrawn) on /.test(line));
}

describe("phase 2 with superseded memories", () => {
  let now: number;
  let storage: Storage;
  let store: MemoryStore;
  let root: string;
  const clock = () => now;
  const config = validateConfig({});

  beforeEach(() => {
    now = Date.parse("2026-06-01T09:00:00.000Z");
    const embeddings = createHashedEmbeddingProvider({ dimensions: 64 });
    storage = Storage.open(":memory:", {
      dimensions: 64,
      queue: { clock, leaseMs: 60_000, maxAttempts: 3, backoffBaseMs: 1_000, backoffMaxMs: 60_000, random: () => 0 },
    });
    const recallConfig = defaultRecallConfig();
    const recall = createRecall({ storage, provider: embeddings, config: recallConfig, clock });
    store = new MemoryStore({ storage, embeddings, config: recallConfig, clock, recall });
    root = tempDir("cairn-memories-");
  });

  /** A session's stage-1 output, stored as phase 1 leaves it. */
  function session(id: string, daysAgo: number, facts: Array<[Stage1Output["facts"][number]["type"], string]>) {
    const updatedAt = now - daysAgo * DAY_MS;
    addSession(storage, clock, { id, updatedAt, projectKey: PROJECT });
    storage.stage1.upsert({
      sessionId: id,
      projectKey: PROJECT,
      cwd: "/work/project",
      agent: "codex",
      sourceUpdatedAt: updatedAt,
      itemFrom: 1,
      itemTo: 6,
      rawMemory: `## Facts\n${facts.map(([, content]) => `- ${content}`).join("\n")}`,
      rolloutSummary: `Worked on the invoice module. ${facts[0]?.[1] ?? ""}`,
      rolloutSlug: "invoice",
      facts: facts.map(([type, content]) => ({ type, content, confidence: 0.9, evidence: [1] })),
      entities: [],
      generator: "offline",
      generatedAt: updatedAt,
    });
  }

  async function remember(content: string, type: RememberInput["type"]): Promise<number> {
    const outcome = await store.remember({ content, type, scope: PROJECT });
    return outcome.id!;
  }

  /** Two old sessions on npm and Jest, a newer one on pnpm and Vitest, each fact also in the store. */
  async function history() {
    session("s1", 20, [
      ["preference", NPM],
      ["procedural", JEST],
      ["procedural", SEED],
    ]);
    session("s2", 19, [
      ["procedural", JEST],
      ["procedural", SEED],
    ]);
    session("s3", 2, [
      ["preference", PNPM],
      ["procedural", VITEST],
    ]);
    return {
      npm: await remember(NPM, "preference"),
      jest: await remember(JEST, "procedural"),
      seed: await remember(SEED, "procedural"),
      pnpm: await remember(PNPM, "preference"),
      vitest: await remember(VITEST, "procedural"),
    };
  }

  const consolidate = (consolidator: Consolidator = offlineConsolidator) =>
    runPhase2({ storage, config, clock, memoriesRoot: root, consolidator });
  const projectDir = () => projectWorkspace(root, PROJECT).dir;
  const read = (file: string) => readFileSync(join(projectDir(), file), "utf8");

  it("offline: re-runs once something is superseded, marks the old statements, prunes the skill on the old command, and says so", async () => {
    const ids = await history();
    await consolidate();
    expect(presentsAsCurrent(read("MEMORY.md"), NPM)).toBe(true);
    expect(existsSync(join(projectDir(), "skills", "run-npx-jest"))).toBe(true);
    expect((await consolidate()).outcome).toBe("clean");

    now = Date.parse("2026-06-10T09:00:00.000Z");
    expect(store.supersede(ids.npm, ids.pnpm, { who: "test" })).toBe(true);
    expect(store.supersede(ids.jest, ids.vitest, { who: "test" })).toBe(true);
    const report = await consolidate();
    expect(report.outcome).toBe("succeeded");
    const project = report.workspaces.find((w) => w.kind === "project")!;
    expect(project.outcome).toBe("consolidated");

    const memory = read("MEMORY.md");
    expect(presentsAsCurrent(memory, NPM)).toBe(false);
    expect(presentsAsCurrent(memory, "npx jest")).toBe(false);
    expect(memory).toContain(`${NPM} (replaced on 2026-06-10 by: ${PNPM})`);
    expect(presentsAsCurrent(memory, PNPM)).toBe(true);
    const summary = read("memory_summary.md");
    expect(presentsAsCurrent(summary, "npm test")).toBe(false);
    expect(presentsAsCurrent(summary, "npx jest")).toBe(false);
    expect(summary).toContain(PNPM);
    // The evidence files keep the old sessions, marked as history.
    expect(presentsAsCurrent(read("raw_memories.md"), NPM)).toBe(false);
    expect(read("raw_memories.md")).toContain("(replaced on 2026-06-10 by:");

    expect(existsSync(join(projectDir(), "skills", "run-npx-jest"))).toBe(false);
    expect(existsSync(join(projectDir(), "skills", "run-make-seed-db"))).toBe(true);
    expect(project.superseded).toContain(
      'skills/run-npx-jest: pruned, it was built on "Command that worked: `npx jest src/invoice`" (replaced on 2026-06-10 by: Command that worked: `npx vitest run src/invoice`)',
    );
    expect(project.superseded.some((note) => note.startsWith("inputs: "))).toBe(true);
    expect((await consolidate()).outcome).toBe("clean");

    // Restored: it is current again on the next run, without new input.
    now += DAY_MS;
    expect(store.restore(ids.npm, { who: "test" })).toBe(true);
    expect((await consolidate()).outcome).toBe("succeeded");
    expect(presentsAsCurrent(read("MEMORY.md"), NPM)).toBe(true);
  });

  it("a forgotten memory is removed, with no mark, and the skill built on it pruned", async () => {
    const ids = await history();
    await consolidate();
    expect(read("MEMORY.md")).toContain("make seed-db");
    now += DAY_MS;
    expect(store.forget(ids.seed, { who: "test" })).toBe(true);
    const report = await consolidate();
    expect(report.outcome).toBe("succeeded");
    expect(read("MEMORY.md")).not.toContain("make seed-db");
    expect(read("memory_summary.md")).not.toContain("make seed-db");
    expect(existsSync(join(projectDir(), "skills", "run-make-seed-db"))).toBe(false);
    expect(report.workspaces[0]?.superseded.some((note) => note.startsWith("skills/run-make-seed-db: pruned"))).toBe(
      true,
    );
  });

  describe("llm mode", () => {
    let server: LoopbackServer;
    afterEach(async () => server?.close());

    it("tells the model what was replaced, and marks or rewrites what it wrote back as current anyway", async () => {
      const ids = await history();
      await consolidate(); // an earlier handbook that states npm and Jest as current
      now = Date.parse("2026-06-10T09:00:00.000Z");
      store.supersede(ids.npm, ids.pnpm, { who: "test" });
      store.supersede(ids.jest, ids.vitest, { who: "test" });
      store.forget(ids.seed, { who: "test" });
      // A model that ignores the instruction and writes the old facts back.
      server = await startLoopbackServer(() =>
        json({
          choices: [
            {
              message: {
                content: JSON.stringify({
                  memory_md: `# Memory\n\n## Preferences\n- ${NPM} [rollout_summaries/s1.md]\n- ${PNPM}\n\n## Procedures\n- Seed the database with \`make seed-db\`.\n`,
                  memory_summary_md: `v1\n## Tips\n- Always use npm in this repo; tests run with npm test.\n- Run \`npx jest src/invoice\` for the invoice tests.\n`,
                  skills: [
                    {
                      name: "invoice-tests",
                      description: "How the invoice tests run with `npx jest`.",
                      body: "# Invoice tests\n\n1. Run `npx jest src/invoice`.\n2. Read the failures.",
                    },
                    { name: "seed-db", description: "Seeding the database.", body: "- `make seed-db`" },
                  ],
                }),
              },
              finish_reason: "stop",
            },
          ],
          usage: { prompt_tokens: 500, completion_tokens: 80 },
        }),
      );
      const llm = new OpenAiProvider({ baseUrl: server.url, apiKey: "k", model: "m", timeoutMs: 5000 });
      const report = await consolidate(llmConsolidator(llm, { maxInputTokens: 8000, summaryTokenLimit: 5000 }));
      expect(report.outcome).toBe("succeeded");

      const body = server.requests[0]!.body as { messages: Array<{ role: string; content: string }> };
      const system = body.messages.find((m) => m.role === "system")!.content;
      const user = body.messages.find((m) => m.role === "user")!.content;
      expect(system).toContain("no_longer_true");
      const data = JSON.parse(user.split(/<<<(?:END )?MEMORY DATA [0-9a-f]+>>>/)[1]!) as {
        previous_memory_md: string;
        no_longer_true: { replaced: Array<Record<string, string>>; withdrawn: Array<Record<string, string>> };
      };
      // The previous handbook the model starts from already reads the old facts as history.
      expect(data.previous_memory_md).toContain(NPM);
      expect(presentsAsCurrent(data.previous_memory_md, NPM)).toBe(false);
      expect(data.previous_memory_md).not.toContain("make seed-db");
      expect(data.no_longer_true.replaced).toContainEqual({
        statement: NPM,
        replaced_on: "2026-06-10",
        replaced_by: PNPM,
      });
      expect(data.no_longer_true.withdrawn).toContainEqual({ statement: SEED, withdrawn_on: "2026-06-10" });

      const memory = read("MEMORY.md");
      expect(memory).toContain(`- ${NPM} [rollout_summaries/s1.md] (replaced on 2026-06-10 by: ${PNPM})`);
      expect(memory).not.toContain("make seed-db");
      const summary = read("memory_summary.md");
      expect(presentsAsCurrent(summary, "npm test")).toBe(false);
      expect(presentsAsCurrent(summary, "npx jest")).toBe(false);

      const skill = read("skills/invoice-tests/SKILL.md");
      expect(skill).toContain("1. Run `npx vitest run src/invoice`.");
      expect(skill).toContain("description: How the invoice tests run with `npx vitest`.");
      expect(skill).not.toContain("jest");
      expect(existsSync(join(projectDir(), "skills", "seed-db"))).toBe(false);

      const notes = report.workspaces[0]!.superseded;
      expect(notes).toContain(
        "skills/invoice-tests: rewritten: `npx jest src/invoice` -> `npx vitest run src/invoice` (replaced on 2026-06-10)",
      );
      expect(notes.some((note) => note.startsWith("skills/seed-db: pruned"))).toBe(true);
      expect(notes.some((note) => note.startsWith(`MEMORY.md: marked "- ${NPM}`) || note.includes(NPM))).toBe(true);
      expect(notes.some((note) => note.startsWith("MEMORY.md: dropped") && note.includes("make seed-db"))).toBe(true);
    });
  });

  it("agent mode: the agent finds superseded.md, and what it writes back as current is marked", async () => {
    const ids = await history();
    now = Date.parse("2026-06-10T09:00:00.000Z");
    store.supersede(ids.npm, ids.pnpm, { who: "test" });
    const dir = tempDir("cairn-agent-");
    const command = join(dir, "agent");
    writeFileSync(
      command,
      [
        "#!/usr/bin/env bash",
        "cat > /dev/null",
        "grep -q 'Always use npm in this repo' superseded.md || exit 3",
        `printf '# Memory\\n- ${NPM}\\n' > MEMORY.md`,
        "printf 'v1\\nsummary\\n' > memory_summary.md",
        "",
      ].join("\n"),
    );
    chmodSync(command, 0o755);
    const report = await consolidate(
      agentConsolidator({ cli: "codex", command, timeoutMs: 10_000, summaryTokenLimit: 5000 }),
    );
    expect(report.outcome).toBe("succeeded");
    expect(read("MEMORY.md")).toBe(`# Memory\n- ${NPM} (replaced on 2026-06-10 by: ${PNPM})\n`);
    expect(readdirSync(projectDir())).not.toContain("superseded.md");
  });

  it("injection marks a stale line of a workspace written before the change", async () => {
    const ids = await history();
    await consolidate();
    // An old summary that still states the old facts, as a workspace written before the change would.
    writeFileSync(join(projectDir(), "memory_summary.md"), `v1\n## Tips\n- ${NPM}\n- Run \`npx jest src/invoice\`\n`);
    const before = buildInjection({ memoriesRoot: root, cwd: "/work/project", tokenLimit: 5000 });
    expect(presentsAsCurrent(before.text, NPM)).toBe(true);

    now = Date.parse("2026-06-10T09:00:00.000Z");
    store.supersede(ids.npm, ids.pnpm, { who: "test" });
    store.supersede(ids.jest, ids.vitest, { who: "test" });
    // The list phase 2 keeps for readers that open no store; the run itself then rewrites the summary,
    // so the old one is planted again to stand for a workspace phase 2 has not reached.
    await consolidate();
    writeFileSync(join(projectDir(), "memory_summary.md"), `v1\n## Tips\n- ${NPM}\n- Run \`npx jest src/invoice\`\n`);
    const after = buildInjection({ memoriesRoot: root, cwd: "/work/project", tokenLimit: 5000 });
    expect(presentsAsCurrent(after.text, NPM)).toBe(false);
    expect(presentsAsCurrent(after.text, "npx jest")).toBe(false);
    expect(after.text).toContain(`(replaced on 2026-06-10 by: ${PNPM})`);
  });

  it("a pair a person has not decided: the older statement is marked as doubted, kept, and unmarked once kept", async () => {
    const ids = await history();
    await consolidate();
    now = Date.parse("2026-06-10T09:00:00.000Z");
    const npmFlag = storage.reviews.add({
      memoryId: ids.npm,
      relatedId: ids.pnpm,
      reason: "test",
      detector: "syntactic",
      now,
    });
    storage.reviews.add({ memoryId: ids.jest, relatedId: ids.vitest, reason: "test", detector: "syntactic", now });
    // A flag is a reason to run: the workspace gets the mark, the skill and the inputs stay as they were.
    const run = await consolidate();
    const project = run.workspaces.find((w) => w.workspace === PROJECT);
    expect(project?.outcome).toBe("consolidated");
    expect(project?.superseded).toEqual([]);
    expect(project?.doubted).toContainEqual(
      `memory_summary.md: marked "${NPM}" (may be out of date, under review: on 2026-06-01 a newer memory said "${PNPM}")`,
    );
    const doubt = `(may be out of date, under review: on 2026-06-01 a newer memory said "${PNPM}")`;
    const line = read("MEMORY.md")
      .split("\n")
      .find((l) => l.includes(NPM));
    expect(line).toContain(doubt);
    expect(existsSync(join(projectDir(), "skills", "run-npx-jest"))).toBe(true);
    expect(readFileSync(join(projectDir(), "skills", "run-npx-jest", "SKILL.md"), "utf8")).not.toContain(
      "may be out of date",
    );
    expect((await consolidate()).outcome).toBe("clean");

    // Injection marks a summary written before the flag from the list, and stops once the flag is kept,
    // before any phase 2.
    const summary = join(projectDir(), "memory_summary.md");
    const injected = () => buildInjection({ memoriesRoot: root, cwd: "/work/project", tokenLimit: 5000 }).text;
    writeFileSync(summary, `v1\n## Tips\n- ${NPM}\n`);
    expect(injected()).toContain(`${NPM} ${doubt}`);
    // A mark already there is not doubled.
    writeFileSync(summary, `v1\n## Tips\n- ${NPM} ${doubt}\n`);
    expect(injected().split(doubt).length).toBe(2);
    storage.reviews.resolve(npmFlag, "kept", now);
    // What `cairn memory review --keep` does at once: the list is written again (here by phase 2).
    await consolidate();
    writeFileSync(summary, `v1\n## Tips\n- ${NPM} ${doubt}\n`);
    expect(injected()).toContain(NPM);
    expect(injected()).not.toContain(doubt);
    expect(read("MEMORY.md")).not.toContain(doubt);
    expect(presentsAsCurrent(read("MEMORY.md"), NPM)).toBe(true);
  });
});
