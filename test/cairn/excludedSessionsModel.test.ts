import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Cairn } from "../../src/index.js";
import { schemaName, userPrompt } from "../chaos/support/fakeProvider.js";
import { excludingCairn } from "../helpers/excludingCairn.js";
import { type LoopbackServer, type RecordedRequest, startLoopbackServer } from "../helpers/loopbackServer.js";
import { saidSession } from "../helpers/saidSession.js";
import { tempDir } from "../helpers/tempDir.js";

// Two repositories; the user later excludes the client's one. A model answers every request by
// echoing the markers it was shown, so whatever text reaches it is visible in what it wrote.
const CLIENT = "/projects/secret-client";
const OPEN = "/projects/open";
const SECRET = "EXCLsecuserQ";
const KEPT = "EXCLopenQ";

function markers(text: string): string[] {
  return [...new Set(text.match(/EXCL[A-Za-z]*Q/g) ?? [])].sort();
}

/** An OpenAI-compatible answer for each kind of request, quoting the prompt's markers. */
function echo(request: RecordedRequest) {
  if (request.method !== "POST") return { body: { data: [{ id: "fake-model" }] } };
  const seen = markers(request.text).join(" ") || "nothing";
  const answers: Record<string, unknown> = {
    stage1_memory: {
      rollout_summary: `The session settled how tests are run (${seen}).`,
      raw_memory: `- The user runs the tests with the project script (${seen}).`,
      rollout_slug: "test-script",
      facts: [
        {
          content: `In all my projects, always run the tests with make test (${seen}).`,
          type: "preference",
          confidence: 0.9,
          evidence: [],
        },
      ],
      entities: [],
    },
    memory_workspace: {
      memory_md: `# Memory\n\n- Tests run through the project script (${seen}).\n`,
      memory_summary_md: `v1\n- Tests run through the project script (${seen}).\n`,
      skills: [{ name: "run-tests", description: `Running the tests (${seen})`, body: `Use the script (${seen}).` }],
    },
    fact_decisions: { decisions: [] },
    contradiction_check: { contradicts: false, confidence: 0.1, reason: "unrelated" },
  };
  const content = JSON.stringify(answers[schemaName(request) ?? ""] ?? {});
  return {
    body: {
      choices: [{ message: { role: "assistant", content }, finish_reason: "stop" }],
      usage: { prompt_tokens: 100, completion_tokens: 50 },
    },
  };
}

describe("memories.exclude set after a model consolidated the sessions", () => {
  let home: string;
  let now: number;
  let model: LoopbackServer;
  let cairn: Cairn;

  const open = (exclude: string[] = []) =>
    excludingCairn(home, () => now, {
      exclude,
      config: {
        "llm.provider": "openai",
        "llm.baseUrl": `${model.url}/v1`,
        "llm.model": "fake-model",
        "llm.apiKey": "k",
        "consolidation.mode": "llm",
      },
    });
  const session = (id: string, cwd: string, said: string) => saidSession(cairn, { id, cwd, said }, (ms) => (now += ms));
  /** Every published file of the global workspace, skills included, as one text. */
  const globalFiles = () => {
    const dir = join(home, "memories", "global");
    const skills = join(dir, "skills");
    const files = ["MEMORY.md", "memory_summary.md", "raw_memories.md"].map((name) => join(dir, name));
    if (existsSync(skills)) for (const name of readdirSync(skills)) files.push(join(skills, name, "SKILL.md"));
    const summaries = join(dir, "rollout_summaries");
    if (existsSync(summaries)) for (const name of readdirSync(summaries)) files.push(join(summaries, name));
    return files.map((file) => readFileSync(file, "utf8")).join("\n");
  };

  beforeEach(async () => {
    home = tempDir("cairn-excluded-model-");
    now = Date.parse("2026-10-01T10:00:00.000Z");
    model = await startLoopbackServer(echo);
    cairn = open();
  });
  afterEach(async () => {
    cairn.close();
    await model.close();
  });

  it("builds every affected workspace again from nothing, and the model is never shown the excluded text again", async () => {
    session("client-1", CLIENT, `In all my projects I always run the tests with make test. ${SECRET}`);
    session("open-1", OPEN, `In all my projects I always run the tests with make test. ${KEPT}`);
    await cairn.run();
    // The model quoted the client's session into the memory every project receives.
    expect(globalFiles()).toContain(SECRET);
    expect(cairn.inject(OPEN).text).toContain(SECRET);

    cairn.close();
    cairn = open([`${CLIENT}/**`]);
    const sentBefore = model.requests.length;
    const run = await cairn.run();
    expect(run.maintenance.excluded).toMatchObject({ sessions: 1, rebuild: ["global", `path:${CLIENT}`] });
    expect(run.consolidate.outcome).toBe("succeeded");

    const after = model.requests.slice(sentBefore);
    const consolidations = after.filter((request) => schemaName(request) === "memory_workspace");
    expect(consolidations.length).toBeGreaterThan(0);
    for (const request of after) expect(request.text).not.toContain(SECRET);
    // The global workspace is built from nothing: no previous file is handed back, whatever it held.
    const global = consolidations.filter((request) => userPrompt(request).startsWith("Workspace: global"));
    expect(global).toHaveLength(1);
    expect(userPrompt(global[0]!)).toContain('"previous_memory_md": "(none yet)"');

    expect(globalFiles()).not.toContain(SECRET);
    expect(globalFiles()).toContain(KEPT);
    const injected = cairn.inject(OPEN).text;
    expect(injected).not.toContain(SECRET);
    expect(injected).toContain(KEPT);
    expect(cairn.storage.phase2.rebuildRequested()).toEqual([]);
  });

  it("still rebuilds from nothing when cairn stopped between the erase and the consolidation", async () => {
    session("client-1", CLIENT, `In all my projects I always run the tests with make test. ${SECRET}`);
    session("open-1", OPEN, `In all my projects I always run the tests with make test. ${KEPT}`);
    await cairn.run();
    expect(globalFiles()).toContain(SECRET);

    cairn.close();
    cairn = open([`${CLIENT}/**`]);
    // The erase runs, then the process is gone before phase 2 (the model is not even reached).
    await cairn.scan();
    expect((await cairn.maintain()).excluded).toMatchObject({ sessions: 1 });
    cairn.close();

    cairn = open([`${CLIENT}/**`]);
    expect(cairn.storage.phase2.rebuildRequested()).toContain("global");
    const sentBefore = model.requests.length;
    await cairn.run();
    for (const request of model.requests.slice(sentBefore)) expect(request.text).not.toContain(SECRET);
    expect(globalFiles()).not.toContain(SECRET);
    expect(cairn.inject(OPEN).text).not.toContain(SECRET);
  });

  it("builds the global workspace again from nothing after 'memory clear' of one project", async () => {
    session("client-1", CLIENT, `In all my projects I always run the tests with make test. ${SECRET}`);
    session("open-1", OPEN, `In all my projects I always run the tests with make test. ${KEPT}`);
    await cairn.run();
    expect(globalFiles()).toContain(SECRET);

    cairn.clearMemory({ cwd: CLIENT });
    const sentBefore = model.requests.length;
    await cairn.run();
    expect(model.requests.length).toBeGreaterThan(sentBefore);
    for (const request of model.requests.slice(sentBefore)) expect(request.text).not.toContain(SECRET);
    expect(globalFiles()).not.toContain(SECRET);
    expect(globalFiles()).toContain(KEPT);
    expect(cairn.inject(OPEN).text).not.toContain(SECRET);
  });
});
