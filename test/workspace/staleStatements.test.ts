import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  StaleMatcher,
  type StaleStatement,
  staleAsSeenFrom,
  stripDoubtMarks,
} from "../../src/workspace/staleStatements.js";
import { parseSupersededFile, SUPERSEDED_FILE, writeSupersededFile } from "../../src/workspace/supersededFile.js";

const AT = Date.parse("2026-06-10T09:00:00.000Z");
const NPM: StaleStatement = {
  scope: "path:/srv/app",
  statement: "Always use npm in this repo, run the tests with npm test",
  replacement: "Never use npm here anymore; always use pnpm",
  at: AT,
};
const JEST: StaleStatement = {
  scope: "path:/srv/app",
  statement: "Command that worked: `npx jest src/invoice`",
  replacement: "Tests run with Vitest now: `npx vitest run src/invoice`",
  at: AT,
};
const PORT: StaleStatement = {
  scope: "path:/srv/app",
  statement: "The API listens on port 3000 locally",
  replacement: "The API listens on port 8080 locally",
  at: AT,
};
const MYSQL_WITHDRAWN: StaleStatement = {
  scope: "path:/srv/app",
  statement: "The staging database is MySQL 5.7",
  replacement: null,
  at: AT,
};

describe("StaleMatcher", () => {
  const matcher = new StaleMatcher([NPM, JEST, PORT, MYSQL_WITHDRAWN]);

  it("finds a stale statement restated in other words, with a citation, or by its command alone", () => {
    expect(matcher.match("- Always use npm in this repo; the tests run with `npm test` [rollout_summaries/a.md]")).toBe(
      NPM,
    );
    expect(matcher.match("- `npx jest src/invoice`")).toBe(JEST);
    expect(matcher.match("Run npx jest src/invoice before pushing.")).toBe(JEST);
    expect(matcher.match("The API listens on port 3000.")).toBe(PORT);
  });

  it("leaves a statement about another numbered thing alone", () => {
    const service: StaleStatement = {
      scope: "path:/srv/app",
      statement: "Service 3 stores its data in Postgres",
      replacement: "Service 3 stores its data in ClickHouse",
      at: AT,
    };
    const numbered = new StaleMatcher([service]);
    expect(numbered.match("- Service 3 stores its data in Postgres.")).toBe(service);
    expect(numbered.match("- Service 5 stores its data in Postgres.")).toBeUndefined();
    const twelve = new StaleMatcher([{ ...service, statement: service.statement.replace("3", "12") }]);
    expect(twelve.match("- Service 15 stores its data in Postgres.")).toBeUndefined();
  });

  it("leaves the replacement, a negation of the old statement, and look-alike commands alone", () => {
    expect(matcher.match("Never use npm here anymore; always use pnpm")).toBeUndefined();
    expect(matcher.match("Never use npm in this repo, run the tests with pnpm test")).toBeUndefined();
    expect(matcher.match("The API listens on port 8080 locally")).toBeUndefined();
    expect(matcher.match("- `npx vitest run src/invoice`")).toBeUndefined();
    expect(matcher.match("Switched from `npx jest src/invoice` to `npx vitest run src/invoice`")).toBeUndefined();
    expect(matcher.match("- `npx jest src/invoices-v2`")).toBeUndefined();
    // A sentence about other commands states something else, though it quotes the same error.
    const tsc: StaleStatement = {
      scope: "path:/srv/app",
      statement:
        '`npx tsc --noEmit` failed with "src/a.ts(3,1): error TS2739: Type is missing properties"; `npx tsc` later succeeded.',
      replacement: null,
      at: AT,
    };
    expect(
      new StaleMatcher([tsc]).match(
        '`npm run check` failed with "src/a.ts(3,1): error TS2739: Type is missing properties"; `npm run check` later succeeded.',
      ),
    ).toBeUndefined();
    expect(new StaleMatcher([tsc]).match(tsc.statement)).toBe(tsc);
    // Another outcome of the same command does not state that it worked.
    expect(
      matcher.match('`npx jest src/invoice` failed with "FAIL src/invoice.test.ts"; `npm test` later succeeded.'),
    ).toBeUndefined();
    expect(matcher.match("Deploys go through the release pipeline.")).toBeUndefined();
  });

  it("marks a superseded sentence with its date and successor, removes a withdrawn one, keeps the rest", () => {
    const text = [
      "v1",
      "## Tips",
      "- Always use npm in this repo, run the tests with npm test",
      "- The staging database is MySQL 5.7",
      "- Keep commits small. The API listens on port 3000 locally. Ask before deploying.",
      "- Never use npm here anymore; always use pnpm",
    ].join("\n");
    const { text: revised, hits } = matcher.revise(text);
    expect(revised.split("\n")).toEqual([
      "v1",
      "## Tips",
      "- Always use npm in this repo, run the tests with npm test (replaced on 2026-06-10 by: Never use npm here anymore; always use pnpm)",
      "- Keep commits small. The API listens on port 3000 locally. (replaced on 2026-06-10 by: The API listens on port 8080 locally) Ask before deploying.",
      "- Never use npm here anymore; always use pnpm",
    ]);
    expect(hits.map((hit) => [hit.stale.statement, hit.action])).toEqual([
      [NPM.statement, "marked"],
      [MYSQL_WITHDRAWN.statement, "dropped"],
      [PORT.statement, "marked"],
    ]);
    // Revising again changes nothing: a marked sentence no longer presents the old fact as current.
    expect(matcher.revise(revised)).toEqual({ text: revised, hits: [] });
  });

  it("a short statement is stated only by a sentence containing it, and not by its more specific successor", () => {
    const pnpm = new StaleMatcher([
      { scope: "s", statement: "Use pnpm", replacement: "Use pnpm 9 with workspaces", at: AT },
    ]);
    expect(pnpm.match("Use pnpm for installs.")).toBeDefined();
    expect(pnpm.match("Use pnpm 9 with workspaces.")).toBeUndefined();
    expect(pnpm.match("We use pnpmfile hooks.")).toBeUndefined();
  });

  it("the global workspace removes a statement another project replaced instead of showing that project's successor", () => {
    const global = new StaleMatcher(staleAsSeenFrom([NPM, { ...PORT, scope: "global" }], "global"));
    const { text } = global.revise(`- ${NPM.statement}\n- ${PORT.statement}`);
    expect(text).toBe(`- ${PORT.statement} (replaced on 2026-06-10 by: ${PORT.replacement})`);
    expect(staleAsSeenFrom([NPM], NPM.scope)).toEqual([NPM]);
  });

  it("with nothing stale, returns the text as it was", () => {
    expect(new StaleMatcher([]).revise("- Always use npm")).toEqual({ text: "- Always use npm", hits: [] });
  });
});

describe("doubted statements (a review flag open against a newer memory)", () => {
  const DOUBTED: StaleStatement = { ...NPM, doubted: true };
  const MARK = `(may be out of date, under review: on 2026-06-10 a newer memory said "${NPM.replacement}")`;

  it("are marked with the newer statement, never removed, and not marked twice", () => {
    const matcher = new StaleMatcher([DOUBTED]);
    const once = matcher.revise(`- ${NPM.statement}`);
    expect(once.text).toBe(`- ${NPM.statement} ${MARK}`);
    expect(once.hits.map((hit) => hit.action)).toEqual(["marked"]);
    expect(matcher.revise(once.text).text).toBe(once.text);
  });

  it("lose their mark with stripDoubtMarks, whatever the newer text holds", () => {
    const quoted: StaleStatement = { ...DOUBTED, replacement: 'Use "pnpm" (not npm)' };
    const marked = new StaleMatcher([quoted]).revise(NPM.statement).text;
    expect(marked).toBe(
      `${NPM.statement} (may be out of date, under review: on 2026-06-10 a newer memory said "Use 'pnpm' (not npm)")`,
    );
    expect(stripDoubtMarks(marked)).toBe(NPM.statement);
    // A replacement mark stays.
    const replaced = new StaleMatcher([NPM]).revise(NPM.statement).text;
    expect(stripDoubtMarks(replaced)).toBe(replaced);
  });

  it("of another project are not shown in a workspace that cannot show the newer memory", () => {
    expect(staleAsSeenFrom([DOUBTED, NPM], "global")).toEqual([{ ...NPM, replacement: null }]);
    expect(staleAsSeenFrom([DOUBTED], NPM.scope)).toEqual([DOUBTED]);
  });

  it("round-trip through superseded.json", () => {
    const dir = mkdtempSync(join(tmpdir(), "cairn-superseded-"));
    try {
      writeSupersededFile(dir, [NPM, DOUBTED]);
      expect(parseSupersededFile(readFileSync(join(dir, SUPERSEDED_FILE), "utf8"))).toEqual([NPM, DOUBTED]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("references", () => {
  it("a citation or a link target whose file name holds the statement's words states nothing", () => {
    const matcher = new StaleMatcher([PORT]);
    const cite = "[rollout_summaries/2026-06-01T10-03-00-bd7662-api_listens_port_3000_locally.md]";
    const line = `- Always run the migrations with make migrate. ${cite}`;
    expect(matcher.revise(line).text).toBe(line);
    const linked = "- See [the notes](notes/api-listens-on-port-3000-locally.md) for the setup.";
    expect(matcher.revise(linked).text).toBe(linked);
    // The statement itself, cited, is marked once, before its citation.
    expect(matcher.revise(`- ${PORT.statement}. ${cite}`).text).toBe(
      `- ${PORT.statement}. (replaced on 2026-06-10 by: ${PORT.replacement}) ${cite}`,
    );
  });
});
