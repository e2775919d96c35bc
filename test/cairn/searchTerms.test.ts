import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openCairn } from "../../src/index.js";
import { prepareRemember } from "../../src/memory/prepareRemember.js";
import {
  cleanSearchTerms,
  MAX_SEARCH_TERM_CHARS,
  MAX_SEARCH_TERMS,
  searchTermsText,
} from "../../src/memory/searchTerms.js";
import { parseStage1, stage1Schema } from "../../src/pipeline/phase1/parseStage1.js";
import { chatAnswer, chatRequest, fakeModelConfig } from "../helpers/fakeChatModel.js";
import { type LoopbackServer, startLoopbackServer } from "../helpers/loopbackServer.js";
import { memoryStorage } from "../helpers/store.js";
import { tempDir } from "../helpers/tempDir.js";

// A real format, a synthetic value.
const SECRET = "ghp_4fR8kLm2Qx9ZtY7wVb3NcD6eHj1PsA0gUiKo";

const DEPLOY = "Deploys go through the staging cluster first, then production.";
const LINT = "Run pnpm lint before every commit in this repository.";
const MANY = "The API server reads its settings from config/app.toml at startup.";
const CHECKLIST = "The cluster dashboard link is in the team wiki.";
const BROKEN = "Database migrations run with npm run migrate from the repo root.";

/** The stage-1 answer of the fake model: four facts whose terms are good, secret, too many and malformed. */
function stage1(): unknown {
  const fact = (content: string, terms: unknown) => ({ content, type: "fact", confidence: 0.9, evidence: [], terms });
  return {
    rollout_summary: "Set up the deploy and lint routine.",
    rollout_slug: "deploy-routine",
    raw_memory: "## Facts\n- Deploys go through staging first.",
    facts: [
      fact(DEPLOY, ["kubernetes", "k8s", "release process"]),
      fact(LINT, ["linter", `token ${SECRET}`, "eslint"]),
      fact(MANY, [...Array.from({ length: 30 }, (_, i) => `alias${i}`), "x".repeat(MAX_SEARCH_TERM_CHARS + 1)]),
      fact(BROKEN, "schema changes, sql"),
    ],
    entities: [],
  };
}

describe("search terms written at extraction, through a real OpenAI-compatible wire format", () => {
  let server: LoopbackServer;
  beforeAll(async () => {
    server = await startLoopbackServer((request) => {
      if (request.path === "/v1/models") return { body: { object: "list", data: [{ id: "fake-model" }] } };
      if (chatRequest(request).schema === "stage1_memory") return chatAnswer(stage1());
      return { status: 400, body: { error: { message: `unexpected request ${chatRequest(request).schema}` } } };
    });
  });
  afterAll(() => server.close());

  it("stores each fact's terms (redacted, capped), recall finds a memory by a term its text lacks", async () => {
    let now = Date.parse("2026-10-01T10:00:00.000Z");
    const cairn = openCairn({
      home: tempDir("cairn-terms-"),
      env: {},
      clock: () => now,
      config: {
        ...fakeModelConfig(server),
        "memories.minRolloutIdleHours": 0,
      },
    });
    try {
      for (const [role, text] of [
        ["user", "Set up the deploy routine and make sure lint runs before commits."],
        ["assistant", "Done."],
      ] as const) {
        now += 1000;
        cairn.appendHistory("agent-7", { role, text, ts: now }, { cwd: "/srv/app", agent: "push" });
      }
      cairn.endSession("agent-7");
      // A memory written without a model has no terms and behaves as before.
      await cairn.remember({ content: CHECKLIST, scope: "global" });
      expect((await cairn.recall({ query: "kubernetes", scope: "all" })).results).toEqual([]);

      const report = await cairn.extract();
      expect(report.jobs.map((job) => job.outcome)).toEqual(["succeeded"]);
      expect(report.jobs[0]?.warnings).toContain("fact 3: terms is not a list; ignored");
      expect(report.jobs[0]?.warnings).toContain("fact 2: 31 terms; kept at most 12");
      // One model call for the session: the terms came with the facts.
      expect(server.requests.filter((r) => r.path === "/v1/chat/completions")).toHaveLength(1);

      const rows = cairn.storage.db.prepare("SELECT content, search_terms AS terms FROM memories").all() as {
        content: string;
        terms: string | null;
      }[];
      const termsOf = (content: string) => rows.find((r) => r.content === content)?.terms;
      expect(termsOf(DEPLOY)).toBe("kubernetes k8s release process");
      // The term holding a secret is dropped whole; the others stay.
      expect(termsOf(LINT)).toBe("linter eslint");
      expect(JSON.stringify(rows)).not.toContain(SECRET);
      const stage1Row = cairn.storage.db.prepare("SELECT facts FROM stage1_outputs").get() as { facts: string };
      expect(stage1Row.facts).not.toContain(SECRET);
      // Capped in count.
      expect(termsOf(MANY)?.split(" ")).toEqual(Array.from({ length: MAX_SEARCH_TERMS }, (_, i) => `alias${i}`));
      // A malformed terms field costs the fact its terms, nothing else.
      expect(rows.map((r) => r.content)).toContain(BROKEN);
      expect(termsOf(BROKEN)).toBeNull();
      expect(termsOf(CHECKLIST)).toBeNull();

      const byTerm = await cairn.recall({ query: "kubernetes", scope: "all" });
      expect(byTerm.results.map((r) => r.content)).toEqual([DEPLOY]);
      const eslint = await cairn.recall({ query: "eslint", scope: "all" });
      expect(eslint.results[0]?.content).toBe(LINT);
    } finally {
      cairn.close();
    }
  });
});

describe("cleaning search terms", () => {
  it("collapses whitespace, drops empty, over-long, duplicate and redacted terms, and caps the count", () => {
    const long = "y".repeat(MAX_SEARCH_TERM_CHARS + 1);
    expect(cleanSearchTerms([" end-to-end \n test ", "", long, "E2E", "e2e", `key ${SECRET}`, 3, "env"])).toEqual([
      "end-to-end test",
      "E2E",
      "env",
    ]);
    expect(cleanSearchTerms(Array.from({ length: 20 }, (_, i) => `t${i}`))).toHaveLength(MAX_SEARCH_TERMS);
    expect(searchTermsText(["db", "database"])).toBe("db database");
    expect(searchTermsText([long])).toBeNull();
  });
});

describe("the terms column at recall", () => {
  it("matches at its own weight, below the text's, and not at all at weight 0", () => {
    const storage = memoryStorage(() => 1);
    try {
      const row = (content: string, searchTerms: string | null) =>
        prepareRemember({ content, scope: "global", ...(searchTerms ? { searchTerms: [searchTerms] } : {}) }, 1).row;
      const said = storage.memories.insert(row("Always run the linter before pushing.", null))!;
      const tagged = storage.memories.insert(row("Always run the checker before pushing.", "linter"))!;
      const search = (terms: number) =>
        storage.search.keyword({ match: "linter", scopes: ["global"], limit: 10, terms });
      const hits = search(0.6);
      expect(hits.map((h) => h.id)).toEqual([said, tagged]);
      expect(Math.abs(hits[1]!.raw)).toBeLessThan(Math.abs(hits[0]!.raw));
      expect(search(0).map((h) => h.id)).toEqual([said]);
    } finally {
      storage.close();
    }
  });
});

describe("the stage-1 reader and schema with terms", () => {
  const answer = (terms: unknown) =>
    JSON.stringify({
      rollout_summary: "s",
      rollout_slug: null,
      raw_memory: "r",
      facts: [{ content: "Use vitest for unit tests here.", type: "fact", confidence: 0.9, evidence: [], terms }],
      entities: [],
    });

  it("asks for terms in every fact, at most the cap", () => {
    const fact = (
      stage1Schema.properties as { facts: { items: { required: string[]; properties: { terms: unknown } } } }
    ).facts.items;
    expect(fact.required).toContain("terms");
    expect(fact.properties.terms).toEqual({ type: "array", maxItems: MAX_SEARCH_TERMS, items: { type: "string" } });
  });

  it("keeps the fact when terms are missing, not a list, or hold non-strings, and says so", () => {
    expect(parseStage1(answer(undefined)).extraction.facts[0]).not.toHaveProperty("terms");
    const notList = parseStage1(answer("test runner"));
    expect(notList.extraction.facts).toHaveLength(1);
    expect(notList.extraction.facts[0]).not.toHaveProperty("terms");
    expect(notList.warnings).toContain("fact 0: terms is not a list; ignored");
    const mixed = parseStage1(answer([1, "test runner", null, " Test  Runner ", ""]));
    expect(mixed.extraction.facts[0]?.terms).toEqual(["test runner"]);
  });
});
