import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Cairn } from "../../src/cairn.js";
import type { RememberInput } from "../../src/memory/types.js";
import { projectIdentity } from "../../src/project/projectKey.js";
import { projectWorkspace } from "../../src/workspace/workspacePaths.js";
import { runCli } from "../helpers/runCli.js";
import { addSession } from "../helpers/store.js";
import { type TempHome, tempHome } from "../server/tempHome.js";

const NPM = "Always use npm in this repo, run the tests with npm test";
const PNPM = "Never use npm here anymore; always use pnpm";
const JEST = "Command that worked: `npx jest src/invoice`";
const VITEST = "Command that worked: `npx vitest run src/invoice`";

function presentsAsCurrent(text: string, needle: string): boolean {
  return text.split("\n").some((line) => line.includes(needle) && !/\((?:replaced|withdrawn) on /.test(line));
}

describe("cairn run and cairn inject after a memory was superseded", () => {
  let temp: TempHome;
  beforeAll(() => {
    temp = tempHome();
  });
  afterAll(() => temp.cleanup());

  it("neither MEMORY.md nor the injected block presents npm or Jest as current", async () => {
    const key = projectIdentity(temp.project).key;
    const cairn = new Cairn({ home: temp.home, env: temp.env });
    const storage = cairn.storage;
    const clock = () => Date.now();
    // Sessions as phase 1 left them: two older on npm and Jest, a newer one on pnpm and Vitest.
    const sessions: Array<[string, number, string[]]> = [
      ["old-1", 9, [NPM, JEST]],
      ["old-2", 8, [JEST]],
      ["new-1", 1, [PNPM, VITEST]],
    ];
    for (const [id, daysAgo, facts] of sessions) {
      const updatedAt = Date.now() - daysAgo * 86_400_000;
      addSession(storage, clock, { id, updatedAt, projectKey: key, cwd: temp.project });
      storage.stage1.upsert({
        sessionId: id,
        projectKey: key,
        cwd: temp.project,
        agent: "codex",
        sourceUpdatedAt: updatedAt,
        itemFrom: 1,
        itemTo: 6,
        rawMemory: facts.map((fact) => `- ${fact}`).join("\n"),
        rolloutSummary: `Invoice work. ${facts.join(" ")}`,
        rolloutSlug: "invoice",
        facts: facts.map((content) => ({
          content,
          type: content.startsWith("Command") ? ("procedural" as const) : ("preference" as const),
          confidence: 0.9,
          evidence: [1],
        })),
        entities: [],
        generator: "offline",
        generatedAt: updatedAt,
      });
      storage.stage1.markFactsIngested(id, updatedAt, updatedAt);
    }
    storage.sessions.markAllProcessed(sessions.map(([id]) => id));
    const id = async (content: string, type: RememberInput["type"]) =>
      (await cairn.memories.remember({ content, type, scope: key })).id!;
    const ids = {
      npm: await id(NPM, "preference"),
      jest: await id(JEST, "procedural"),
      pnpm: await id(PNPM, "preference"),
      vitest: await id(VITEST, "procedural"),
    };
    cairn.close();
    const skill = join(projectWorkspace(join(temp.home, "memories"), key).dir, "skills", "run-npx-jest", "SKILL.md");
    const first = runCli(["run"], { env: temp.env });
    expect(first.status, first.stderr).toBe(0);
    expect(readFileSync(skill, "utf8")).toContain("npx jest src/invoice");

    // The change reaches the store (as `remember` or the fact pipeline would record it); no new session.
    const later = new Cairn({ home: temp.home, env: temp.env });
    later.memories.supersede(ids.npm, ids.pnpm, { who: "test" });
    later.memories.supersede(ids.jest, ids.vitest, { who: "test" });
    later.close();

    const run = runCli(["run"], { env: temp.env });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain("superseded: skills/run-npx-jest: pruned");

    const memory = readFileSync(join(projectWorkspace(join(temp.home, "memories"), key).dir, "MEMORY.md"), "utf8");
    expect(presentsAsCurrent(memory, NPM)).toBe(false);
    expect(presentsAsCurrent(memory, "npx jest")).toBe(false);
    expect(memory).toContain(PNPM);

    const inject = runCli(["inject", "--cwd", temp.project], { env: temp.env });
    expect(inject.status, inject.stderr).toBe(0);
    expect(inject.stdout).toContain(PNPM);
    expect(inject.stdout).toContain("npx vitest run src/invoice");
    expect(presentsAsCurrent(inject.stdout, "npm test")).toBe(false);
    expect(presentsAsCurrent(inject.stdout, "npx jest")).toBe(false);
  }, 120_000); // three CLI processes on a busy machine
});
