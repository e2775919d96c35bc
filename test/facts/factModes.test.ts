import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Cairn } from "../../src/cairn.js";
import { chatAnswer, chatRequest, fakeModelConfig, quotedData } from "../helpers/fakeChatModel.js";
import { type LoopbackServer, type RecordedRequest, startLoopbackServer } from "../helpers/loopbackServer.js";
import { runCli } from "../helpers/runCli.js";
import { tempDir } from "../helpers/tempDir.js";

/** What the fake model extracts from a session, picked by a word the session contains. */
function stage1Facts(prompt: string): string[] {
  return prompt.includes("8080")
    ? ["The API server listens on port 8080 locally", "The API server writes its request log to stdout locally"]
    : ["The API server listens on port 3000 locally", "The API server writes its request log to a file locally"];
}

const words = (text: string) => new Set(text.toLowerCase().match(/[a-z0-9]+/g) ?? []);
const overlap = (a: string, b: string) => [...words(a)].filter((w) => words(b).has(w)).length;

/** An OpenAI-compatible model: stage-1 answers with facts; the decision call UPDATEs the closest candidate. */
function reply(request: RecordedRequest) {
  const { prompt, schema } = chatRequest(request);
  let answer: unknown;
  if (schema === "fact_decisions") {
    const data = quotedData<{
      facts: Array<{ fact: number; content: string; candidates: Array<{ id: number; content: string }> }>;
    }>(prompt);
    answer = {
      decisions: data.facts.map((f) => {
        const closest = [...f.candidates].sort(
          (a, b) => overlap(f.content, b.content) - overlap(f.content, a.content),
        )[0]!;
        return { fact: f.fact, action: "UPDATE", targetId: closest.id, confidence: 0.9, reason: "the value changed" };
      }),
    };
  } else {
    const item = Number(/"id":(\d+)/.exec(prompt)?.[1] ?? 1);
    answer = {
      rollout_summary: "Configured the API server.",
      rollout_slug: "api-server",
      raw_memory: "## Facts\n- the API server settings",
      facts: stage1Facts(prompt).map((content) => ({ content, type: "fact", confidence: 0.9, evidence: [item] })),
      entities: [],
    };
  }
  return chatAnswer(answer);
}

describe("the fact stage on the path cairn extract and cairn run take", () => {
  let server: LoopbackServer;
  beforeAll(async () => {
    server = await startLoopbackServer((request) =>
      request.path === "/v1/models" ? { body: { object: "list", data: [{ id: "fake-model" }] } } : reply(request),
    );
  });
  afterAll(() => server.close());

  let now = Date.parse("2026-10-01T10:00:00.000Z");
  const open = (home: string, config: Record<string, unknown> = {}) =>
    new Cairn({
      home,
      env: { HOME: home },
      clock: () => now,
      config: {
        ...fakeModelConfig(server),
        "memories.minRolloutIdleHours": 0,
        "consolidation.mode": "offline",
        ...config,
      },
    });
  const session = (cairn: Cairn, id: string, text: string) => {
    now += 60_000;
    cairn.appendHistory(id, { role: "user", text, ts: now }, { cwd: "/srv/api", agent: "push" });
    cairn.appendHistory(id, { role: "assistant", text: "Done.", ts: now + 1 }, { cwd: "/srv/api", agent: "push" });
    cairn.endSession(id);
    now += 60_000;
  };
  const chatCalls = () => server.requests.filter((r) => r.path === "/v1/chat/completions").length;
  const memoriesHash = (cairn: Cairn) =>
    createHash("sha256")
      .update(JSON.stringify(cairn.storage.db.prepare("SELECT * FROM memories ORDER BY id").all()))
      .digest("hex");

  it("costs one extraction and one decision call per session, and an UPDATE supersedes the old memory", async () => {
    const cairn = open(tempDir("cairn-facts-"));
    try {
      session(cairn, "first", "The API listens on port 3000 and logs requests to a file.");
      await cairn.extract();
      const before = chatCalls();
      session(cairn, "second", "We moved the API to port 8080; request logs go to stdout now.");
      const report = await cairn.extract();
      expect(report.facts).toMatchObject({ outputs: 1, written: 2, failed: 0 });
      expect(chatCalls() - before).toBe(2);
      const rows = cairn.storage.db
        .prepare("SELECT id, content, superseded_by AS supersededBy FROM memories ORDER BY id")
        .all() as Array<{ id: number; content: string; supersededBy: number | null }>;
      const id = (text: string) => rows.find((r) => r.content.includes(text))!.id;
      expect(rows.find((r) => r.content.includes("3000"))?.supersededBy).toBe(id("8080"));
      expect(rows.find((r) => r.content.includes("to a file"))?.supersededBy).toBe(id("to stdout"));
      // The candidate lookups are the write path's own: they do not count as the sessions' memories being used.
      const usage = (session: string) =>
        cairn.storage.db.prepare("SELECT usage_count AS n FROM stage1_outputs WHERE session_id = ?").get(session);
      expect([usage("first"), usage("second")]).toEqual([{ n: 0 }, { n: 0 }]);
      const { results } = await cairn.recall({ query: "which port does the API server listen on", scope: "all" });
      expect(usage("second")).toEqual({ n: 1 });
      expect(results.map((r) => r.content)).toContain("The API server listens on port 8080 locally");
      expect(results.map((r) => r.content)).not.toContain("The API server listens on port 3000 locally");
    } finally {
      cairn.close();
    }
  });

  it("in shadow mode decides and audits every proposal through cairn run and leaves the memories table unchanged", async () => {
    const home = tempDir("cairn-shadow-");
    const first = open(home);
    session(first, "first", "The API listens on port 3000 and logs requests to a file.");
    await first.extract();
    first.close();
    const cairn = open(home, { "pipeline.shadowMode": true });
    try {
      session(cairn, "second", "We moved the API to port 8080; request logs go to stdout now.");
      const before = memoriesHash(cairn);
      const { extract } = await cairn.run();
      expect(extract.facts).toMatchObject({ outputs: 1, written: 0, failed: 0 });
      expect(memoriesHash(cairn)).toBe(before);
      const proposals = cairn.storage.history.recent("fact_none", 10);
      // The whole phase-1 report and the audited events in the message: this failed once under a loaded
      // full run (both proposals NONE) and never alone; what it printed will say why.
      const seen = JSON.stringify({ extract, proposals, requests: server.requests.length });
      expect(
        proposals.map((e) => [e.reason, (e.metadata as { action: string }).action]),
        seen,
      ).toEqual([
        ["shadow_mode", "UPDATE"],
        ["shadow_mode", "UPDATE"],
      ]);
      expect(cairn.storage.stage1.pendingFacts(10)).toEqual([]);
    } finally {
      cairn.close();
    }
  });

  it("with pipeline.enabled false leaves the stage-1 outputs pending and says so; they are stored once it is true", async () => {
    const home = tempDir("cairn-disabled-");
    const off = open(home, { "pipeline.enabled": false });
    try {
      session(off, "first", "The API listens on port 3000 and logs requests to a file.");
      const report = await off.extract();
      expect(report.facts).toMatchObject({ outputs: 0, written: 0, skipped: "pipeline.enabled is false" });
      expect(off.storage.stage1.pendingFacts(10).map((o) => o.sessionId)).toEqual(["first"]);
      expect(off.memories.counts().live).toBe(0);
    } finally {
      off.close();
    }
    const on = open(home);
    try {
      expect((await on.extract()).facts).toMatchObject({ outputs: 1, written: 2 });
    } finally {
      on.close();
    }
  });

  it("with mutationsFrozen decides and audits without writing, and the store refuses other writes", async () => {
    const cairn = open(tempDir("cairn-frozen-"), { "pipeline.mutationsFrozen": true });
    try {
      session(cairn, "first", "The API listens on port 3000 and logs requests to a file.");
      const report = await cairn.extract();
      expect(report.facts).toMatchObject({ outputs: 1, written: 0, failed: 0 });
      expect(cairn.storage.history.recent("fact_none", 10).map((e) => e.reason)).toEqual([
        "mutations_frozen",
        "mutations_frozen",
      ]);
      expect(cairn.storage.db.prepare("SELECT count(*) AS n FROM memories").get()).toEqual({ n: 0 });
      await expect(cairn.remember({ content: "Use pnpm", scope: "global" })).rejects.toMatchObject({
        code: "mutations_frozen",
        status: 409,
      });
      expect(() => cairn.memories.forget(1)).toThrow("pipeline.mutationsFrozen");
      expect(() => cairn.memories.restore(1)).toThrow("pipeline.mutationsFrozen");
      expect(() => cairn.clearMemory({ all: true })).toThrow("pipeline.mutationsFrozen");
    } finally {
      cairn.close();
    }
  });
});

describe("cairn remember while memory writes are frozen (CLI)", () => {
  it("fails with one line naming the flag", () => {
    const env = { CAIRN_HOME: tempDir("cairn-frozen-cli-") };
    expect(runCli(["config", "set", "pipeline.mutationsFrozen", "true"], { env }).status).toBe(0);
    const result = runCli(["remember", "Use pnpm in this repo", "--scope", "global"], { env });
    expect(result.status).not.toBe(0);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toContain("pipeline.mutationsFrozen");
  });
});
