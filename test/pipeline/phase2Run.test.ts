import { chmodSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { validateConfig } from "../../src/config/load.js";
import { runPhase1 } from "../../src/pipeline/phase1/runPhase1.js";
import { agentConsolidator } from "../../src/pipeline/phase2/consolidators/agentConsolidator.js";
import { llmConsolidator } from "../../src/pipeline/phase2/consolidators/llmConsolidator.js";
import { offlineConsolidator } from "../../src/pipeline/phase2/consolidators/offlineConsolidator.js";
import type { Consolidator } from "../../src/pipeline/phase2/consolidators/types.js";
import { runPhase2 } from "../../src/pipeline/phase2/runPhase2.js";
import { OpenAiProvider } from "../../src/providers/llm/openai.js";
import type { Storage } from "../../src/store/storage.js";
import { DAY_MS } from "../../src/util/clock.js";
import { projectWorkspace } from "../../src/workspace/workspacePaths.js";
import { json, type LoopbackServer, startLoopbackServer } from "../helpers/loopbackServer.js";
import { addSession, memoryStorage } from "../helpers/store.js";
import { tempDir } from "../helpers/tempDir.js";

const PROJECT = "path:/work/project";

describe("phase 2", () => {
  let now: number;
  let storage: Storage;
  let root: string;
  const clock = () => now;
  const config = validateConfig({ memories: { phase2MaxInputs: 2 } });

  beforeEach(async () => {
    now = 100 * DAY_MS;
    storage = memoryStorage(clock);
    root = tempDir("cairn-memories-");
  });

  const extract = () => runPhase1({ storage, config, clock, llm: null });
  const consolidate = (consolidator: Consolidator = offlineConsolidator, force = false) =>
    runPhase2({ storage, config, clock, memoriesRoot: root, consolidator }, { force });
  const projectDir = () => projectWorkspace(root, PROJECT).dir;
  const read = (file: string) => readFileSync(join(projectDir(), file), "utf8");

  it("with no stage-1 input, succeeds and writes nothing", async () => {
    const report = await consolidate();
    expect(report.outcome).toBe("no_input");
    expect(readdirSync(root)).toEqual([]);
  });

  it("writes a valid project workspace, then reports clean until input changes", async () => {
    addSession(storage, clock, { id: "s1", updatedAt: now - 3 * DAY_MS });
    await extract();
    const first = await consolidate();
    expect(first.outcome).toBe("succeeded");
    // The session states nothing for all projects: the global workspace has nothing to learn.
    expect(first.workspaces.map((w) => [w.kind, w.outcome, w.added])).toEqual([
      ["project", "consolidated", 1],
      ["global", "empty", 0],
    ]);
    expect(read("memory_summary.md").split("\n")[0]).toBe("v1");
    expect(read("MEMORY.md")).toContain("Use pnpm instead of npm for installs.");
    expect(readdirSync(join(projectDir(), "rollout_summaries"))).toHaveLength(1);
    expect(read("raw_memories.md")).toContain("## Session `s1`");
    expect(storage.stage1.get("s1")?.selectedForPhase2).toBe(true);
    expect((await consolidate()).outcome).toBe("clean");
  });

  it("consolidates a session older than the watermark that was extracted after the last run", async () => {
    addSession(storage, clock, { id: "s1", updatedAt: now - DAY_MS });
    await extract();
    expect((await consolidate()).outcome).toBe("succeeded");
    // Another agent's history, imported now: its session ended before the watermark.
    now += 1000;
    addSession(storage, clock, {
      id: "old",
      updatedAt: now - 5 * DAY_MS,
      projectKey: "path:/work/other",
      cwd: "/work/other",
    });
    await extract();
    expect(storage.stage1.get("old")).toBeDefined();
    const report = await consolidate();
    expect(report.outcome).toBe("succeeded");
    const other = report.workspaces.find((w) => w.workspace === "path:/work/other");
    expect([other?.outcome, other?.added]).toEqual(["consolidated", 1]);
    expect(report.workspaces.find((w) => w.workspace === PROJECT)?.outcome).toBe("unchanged");
    expect((await consolidate()).outcome).toBe("clean");
  });

  it("a refreshed session is added again; dropping out of the top N removes it, with its evidence available during consolidation and pruned after", async () => {
    addSession(storage, clock, { id: "s1", updatedAt: now - 3 * DAY_MS });
    await extract();
    now += 1000; // s1 is the oldest memory: it is the one to fall out of the top 2
    addSession(storage, clock, { id: "s2", updatedAt: now - 2 * DAY_MS });
    await extract();
    await consolidate();
    now += 1000;
    addSession(storage, clock, { id: "s3", updatedAt: now - DAY_MS });
    await extract();
    let seenDuring: string[] = [];
    const spy: Consolidator = {
      mode: "offline",
      async consolidate(input, context) {
        if (input.workspace.kind === "project") seenDuring = readdirSync(join(input.dir, "rollout_summaries"));
        return offlineConsolidator.consolidate(input, context);
      },
    };
    const report = await consolidate(spy);
    const project = report.workspaces.find((w) => w.kind === "project")!;
    expect([project.added, project.retained, project.removed]).toEqual([1, 1, 1]);
    expect(seenDuring).toHaveLength(3);
    expect(readdirSync(join(projectDir(), "rollout_summaries"))).toHaveLength(2);
    expect(read("raw_memories.md")).not.toContain("## Session `s1`");
    expect(read("raw_memories.md")).toContain("## Session `s3`");
  });

  it("never moves the watermark backwards", async () => {
    addSession(storage, clock, { id: "s1", updatedAt: now - 3 * DAY_MS });
    await extract();
    storage.phase2.setWatermark(now * 2);
    const report = await consolidate(offlineConsolidator, true);
    expect(report.watermark).toBe(now * 2);
    expect(storage.phase2.watermark()).toBe(now * 2);
  });

  it("runs one consolidation at a time and takes over a stale lease", async () => {
    addSession(storage, clock, { id: "s1", updatedAt: now - 3 * DAY_MS });
    await extract();
    let gate: () => void = () => {};
    const opened = new Promise<void>((resolve) => {
      gate = resolve;
    });
    const slow: Consolidator = {
      mode: "offline",
      consolidate: async (input, context) => {
        await opened;
        return offlineConsolidator.consolidate(input, context);
      },
    };
    const release = () => gate();
    const first = consolidate(slow);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await consolidate()).outcome).toBe("busy");
    release();
    expect((await first).outcome).toBe("succeeded");

    // A crashed holder: its lease expires and the next run takes over.
    storage.jobs.enqueue({ kind: "phase2", key: "global", force: true, watermark: now * 3 });
    storage.jobs.claim({ kind: "phase2", leaseMs: 1000 });
    expect((await consolidate()).outcome).toBe("busy");
    now += 1001;
    expect((await consolidate()).outcome).toBe("succeeded");
  });

  it("a failed or invalid consolidation leaves the published files untouched", async () => {
    addSession(storage, clock, { id: "s1", updatedAt: now - 3 * DAY_MS });
    await extract();
    await consolidate();
    const before = read("MEMORY.md");
    const failing: Consolidator = {
      mode: "offline",
      consolidate: async () => Promise.reject(new Error("model exploded")),
    };
    const failed = await consolidate(failing, true);
    expect(failed.outcome).toBe("failed");
    expect(failed.error).toContain("model exploded");
    expect(read("MEMORY.md")).toBe(before);

    now += DAY_MS; // past the backoff
    const invalid: Consolidator = {
      mode: "offline",
      consolidate: async () => ({ files: { memory: "# M\n", summary: "no version line\n", skills: [] }, warnings: [] }),
    };
    const report = await consolidate(invalid, true);
    expect(report.outcome).toBe("failed");
    expect(report.error).toContain("memory_summary.md does not start with the version line v1");
    expect(read("MEMORY.md")).toBe(before);
    expect(storage.jobs.get("phase2", "global")?.status).toBe("failed");
  });

  it("gives up after maxAttempts, names the commands that retry it, and runs again once retried", async () => {
    addSession(storage, clock, { id: "s1", updatedAt: now - 3 * DAY_MS });
    await extract();
    const failing: Consolidator = {
      mode: "offline",
      consolidate: async () => Promise.reject(new Error("model exploded")),
    };
    const errors: Array<string | null> = [];
    for (let i = 0; i < 3; i++) {
      errors.push((await consolidate(failing)).error);
      now += DAY_MS; // past the backoff
    }
    expect(errors).toEqual(Array(3).fill("path:/work/project: model exploded"));
    const given = await consolidate();
    expect(given.outcome).toBe("failed");
    expect(given.error).toBe(
      "phase 2 gave up after 3 attempts (path:/work/project: model exploded); new input, 'cairn memory enqueue --now' or 'cairn run --retry-dead' retries it",
    );
    expect(storage.jobs.get("phase2", "global")?.status).toBe("dead");
    expect(storage.jobs.retryDead()).toEqual({ phase2: 1 });
    expect((await consolidate()).outcome).toBe("succeeded");
  });

  it("scans generated files for secrets before publishing", async () => {
    addSession(storage, clock, { id: "s1", updatedAt: now - 3 * DAY_MS });
    await extract();
    const leaky: Consolidator = {
      mode: "offline",
      consolidate: async () => ({
        files: { memory: "# M\n- deploy key AKIAZ3MHX5QJ7TR2NPLW\n", summary: "v1\nsummary\n", skills: [] },
        warnings: [],
      }),
    };
    const report = await consolidate(leaky);
    expect(report.outcome).toBe("succeeded");
    expect(read("MEMORY.md")).not.toContain("AKIAZ3MHX5QJ7TR2NPLW");
    expect(report.workspaces[0]?.warnings).toContain("secret redacted from MEMORY.md");
  });

  describe("llm mode", () => {
    let server: LoopbackServer;
    afterEach(async () => server?.close());

    it("sends the previous files and the diff as data and publishes the model's files", async () => {
      server = await startLoopbackServer(() =>
        json({
          choices: [
            {
              message: {
                content: JSON.stringify({
                  memory_md: "# Memory\n- Use pnpm [rollout_summaries/x.md]\n",
                  memory_summary_md: "v1\n- Prefers pnpm\n",
                  skills: [{ name: "Run Tests", description: "How tests run.", body: "npm test" }],
                }),
              },
              finish_reason: "stop",
            },
          ],
          usage: { prompt_tokens: 500, completion_tokens: 80 },
        }),
      );
      addSession(storage, clock, { id: "s1", updatedAt: now - 3 * DAY_MS });
      await extract();
      const llm = new OpenAiProvider({ baseUrl: server.url, apiKey: "k", model: "m", timeoutMs: 5000 });
      const report = await consolidate(llmConsolidator(llm, { maxInputTokens: 8000, summaryTokenLimit: 5000 }));
      expect(report.outcome).toBe("succeeded");
      expect(report.tokensIn).toBe(500); // one call: nothing user-level, so no global consolidation
      expect(read("memory_summary.md")).toBe("v1\n- Prefers pnpm\n");
      expect(read("skills/run-tests/SKILL.md")).toContain("name: run-tests");
      const body = server.requests[0]!.body as { messages: Array<{ role: string; content: string }> };
      const user = body.messages.find((m) => m.role === "user")!.content;
      expect(user).toContain('"added"');
      expect(user).toContain("Use pnpm instead of npm for installs.");
    });
  });

  describe("agent mode", () => {
    function fakeAgent(script: string): string {
      const dir = tempDir("cairn-agent-");
      const file = join(dir, "agent");
      writeFileSync(file, `#!/usr/bin/env bash\ncat > /dev/null\n${script}\n`);
      chmodSync(file, 0o755);
      return file;
    }
    const agent = (command: string, timeoutMs = 10_000) =>
      agentConsolidator({ cli: "codex", command, timeoutMs, summaryTokenLimit: 5000 });

    it("runs the agent in the staging folder and publishes what it wrote", async () => {
      addSession(storage, clock, { id: "s1", updatedAt: now - 3 * DAY_MS });
      await extract();
      const command = fakeAgent(
        'test -f phase2_diff.md || exit 3\nprintf "# Memory\\n- from agent\\n" > MEMORY.md\nprintf "v1\\nagent summary\\n" > memory_summary.md',
      );
      const report = await consolidate(agent(command));
      expect(report.outcome).toBe("succeeded");
      expect(read("MEMORY.md")).toBe("# Memory\n- from agent\n");
      expect(existsSync(join(projectDir(), "phase2_diff.md"))).toBe(false);
    });

    it("after an erase, starts from an empty folder: no previous handbook, summary or skill to keep text from", async () => {
      addSession(storage, clock, { id: "s1", updatedAt: now - 3 * DAY_MS });
      await extract();
      const first = fakeAgent(
        'printf "# Memory\\n- old text\\n" > MEMORY.md; printf "v1\\nold\\n" > memory_summary.md; mkdir -p skills/old; printf -- "---\\nname: old\\ndescription: old\\n---\\nold\\n" > skills/old/SKILL.md',
      );
      expect((await consolidate(agent(first))).outcome).toBe("succeeded");
      // Refuses to run over anything an earlier version left in its folder.
      const fresh = fakeAgent(
        'test -e MEMORY.md && exit 4; test -e memory_summary.md && exit 4; test -e skills && exit 4\nprintf "# Memory\\n- rebuilt\\n" > MEMORY.md; printf "v1\\nrebuilt\\n" > memory_summary.md',
      );
      expect((await consolidate(agent(fresh), true)).outcome).toBe("failed");

      storage.phase2.requestRebuild([PROJECT]);
      const rebuilt = await consolidate(agent(fresh));
      expect(rebuilt.outcome).toBe("succeeded");
      expect(read("MEMORY.md")).toBe("# Memory\n- rebuilt\n");
      expect(existsSync(join(projectDir(), "skills"))).toBe(false);
      expect(storage.phase2.rebuildRequested()).toEqual([]);
    });

    it("fails when the agent writes outside its workspace, and when it hangs past the timeout", async () => {
      addSession(storage, clock, { id: "s1", updatedAt: now - 3 * DAY_MS });
      await extract();
      const escaping = fakeAgent(
        'printf "v1\\n" > memory_summary.md; printf "# M\\n" > MEMORY.md; echo pwned > ../escaped.txt',
      );
      const escaped = await consolidate(agent(escaping));
      expect(escaped.outcome).toBe("failed");
      expect(escaped.error).toContain("outside its workspace");
      expect(existsSync(join(projectDir(), "MEMORY.md"))).toBe(false);

      now += DAY_MS;
      const hang = fakeAgent("sleep 30");
      const started = Date.now();
      const hung = await consolidate(agent(hang, 500));
      expect(hung.outcome).toBe("failed");
      expect(hung.error).toContain("timed out");
      expect(Date.now() - started).toBeLessThan(10_000);
    });
  });
});
