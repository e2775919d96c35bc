import { existsSync, lstatSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Cairn } from "../../src/index.js";
import { excludingCairn } from "../helpers/excludingCairn.js";
import { saidSession } from "../helpers/saidSession.js";
import { tempDir } from "../helpers/tempDir.js";

// Words no rule takes for a secret, so they are stored as said and can be looked for in the bytes.
const PLANTED = "Quokkaglyph7Zeb";
const OTHER = "Wombatfern4Lux";
const CLIENT = "/projects/secret-client";
const OPEN = "/projects/open";

/** The store's files (cairn.db and its log) that hold `text` in their raw bytes, in any letter case. */
function storeFilesHolding(home: string, text: string): string[] {
  return ["cairn.db", "cairn.db-wal"].filter((name) => {
    const path = join(home, name);
    if (!existsSync(path)) return false;
    const bytes = readFileSync(path);
    return [text, text.toLowerCase()].some((form) => bytes.includes(Buffer.from(form, "utf8")));
  });
}

/** Files under the memories root (version folders included, links not followed) whose text or name holds `text`. */
function memoryFilesHolding(home: string, text: string): string[] {
  const hits: string[] = [];
  const visit = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (name.toLowerCase().includes(text.toLowerCase())) hits.push(path);
      const stat = lstatSync(path);
      if (stat.isDirectory()) visit(path);
      else if (stat.isFile() && readFileSync(path, "utf8").toLowerCase().includes(text.toLowerCase())) hits.push(path);
    }
  };
  visit(join(home, "memories"));
  return hits;
}

describe("erased text leaves the store's file", () => {
  let home: string;
  let now: number;
  let cairn: Cairn;

  const open = (exclude: string[] = []) => excludingCairn(home, () => now, { exclude });
  const session = (id: string, cwd: string, said: string) => saidSession(cairn, { id, cwd, said }, (ms) => (now += ms));
  const contents = async (query: string) =>
    (await cairn.recall({ query, scope: "all", includeSuperseded: true })).results.map((result) => result.content);

  beforeEach(() => {
    home = tempDir("cairn-erased-bytes-");
    now = Date.parse("2026-10-01T10:00:00.000Z");
    cairn = open();
  });
  afterEach(() => cairn.close());

  it("after memories.exclude erases what a session taught, even while the store is open", async () => {
    session("client-1", CLIENT, `I always run the linter before committing, the ${PLANTED} way.`);
    session("open-1", OPEN, `I always run the formatter before committing, the ${OTHER} way.`);
    await cairn.run();
    expect(storeFilesHolding(home, PLANTED)).not.toEqual([]);

    cairn.close();
    cairn = open([`${CLIENT}/**`]);
    const run = await cairn.run();
    expect(run.maintenance.excluded).toMatchObject({ sessions: 1, bytes: { walEmptied: true } });
    // Checked with the store still open (the daemon's case) and again once it is closed.
    expect(storeFilesHolding(home, PLANTED)).toEqual([]);
    expect(memoryFilesHolding(home, PLANTED)).toEqual([]);
    cairn.close();
    expect(storeFilesHolding(home, PLANTED)).toEqual([]);
    cairn = open([`${CLIENT}/**`]);
    expect(storeFilesHolding(home, OTHER)).not.toEqual([]);
  });

  it("after memory clear of a project", async () => {
    await cairn.remember({ content: `The staging API wants ${PLANTED} in its header.`, scope: `path:${CLIENT}` });
    // Said of this repository, so all it teaches stays in the project's memory.
    session("client-1", CLIENT, `In this repo, deploy staging with ${PLANTED} set.`);
    await cairn.run();
    expect(storeFilesHolding(home, PLANTED)).not.toEqual([]);

    const report = cairn.clearMemory({ cwd: CLIENT });
    expect(report.bytes.walEmptied).toBe(true);
    // The collected session stays (clear keeps the user's history): only its items may hold the text.
    cairn.storage.db.prepare("DELETE FROM items").run();
    cairn.close();
    cairn = open();
    expect(storeFilesHolding(home, PLANTED)).toEqual([]);
  });

  it.each([
    ["of a project", { cwd: CLIENT }],
    ["--all", { all: true }],
  ])("memory clear %s drops its superseded memories from superseded.json at once", async (_name, options) => {
    await cairn.remember({
      content: `The ${PLANTED} API listens on port 3000`,
      scope: `path:${CLIENT}`,
      occurredAt: now - 86_400_000,
    });
    const [newer] = await cairn.remember({
      content: `The ${PLANTED} API listens on port 8080`,
      scope: `path:${CLIENT}`,
    });
    expect(newer?.superseded?.length ?? 0).toBeGreaterThan(0);
    expect(memoryFilesHolding(home, PLANTED)).not.toEqual([]);

    cairn.clearMemory(options);
    expect(memoryFilesHolding(home, PLANTED)).toEqual([]);
  });

  it("memory purge --text removes a text from every memory, its history, sessions and files", async () => {
    const kept = await cairn.remember({ content: `Deploy keys live in the vault, not in ${OTHER}.`, scope: "global" });
    const [forgotten] = await cairn.remember({ content: `The staging API wants ${PLANTED} in its header.` });
    cairn.forgetMemory({ id: forgotten!.id! });
    const [edited] = await cairn.remember({ content: `Staging logins use ${PLANTED} as the user name.` });
    await cairn.editMemory({ id: edited!.id!, content: "Staging logins use the shared account." });
    session("open-1", OPEN, `I always deploy staging with ${PLANTED} set.`);
    await cairn.run();
    expect(storeFilesHolding(home, PLANTED)).not.toEqual([]);
    expect(memoryFilesHolding(home, PLANTED)).not.toEqual([]);
    expect(await contents(PLANTED)).not.toEqual([]);

    const report = cairn.purgeMemory({ text: PLANTED.toLowerCase() });
    expect(report.memories).toBeGreaterThanOrEqual(3);
    expect(report.rebuild).toContain("global");
    expect(report.bytes).toEqual({ walEmptied: true, rewritten: true });
    expect(storeFilesHolding(home, PLANTED)).toEqual([]);
    expect(memoryFilesHolding(home, PLANTED)).toEqual([]);
    expect(await contents(PLANTED)).toEqual([]);
    // The row an edit kept, and the tombstone forget kept, are gone with their history.
    expect(() => cairn.memoryHistory({ id: edited!.id! })).toThrow(/no memory/);
    expect(() => cairn.memoryHistory({ id: forgotten!.id! })).toThrow(/no memory/);
    // What did not hold it is untouched, and the next run rebuilds without it.
    expect(kept[0]?.id).toBeDefined();
    expect(await contents("vault deploy keys")).toContain(`Deploy keys live in the vault, not in ${OTHER}.`);
    expect(await contents("staging logins")).toContain("Staging logins use the shared account.");
    await cairn.run();
    expect(memoryFilesHolding(home, PLANTED)).toEqual([]);
    expect(cairn.storage.phase2.rebuildRequested()).toEqual([]);
    cairn.close();
    expect(storeFilesHolding(home, PLANTED)).toEqual([]);
    cairn = open();
  });

  it("memory purge <id> removes that memory in any state, with every copy of its text", async () => {
    const [memory] = await cairn.remember({ content: `Ask ${PLANTED} before touching the billing tables.` });
    const [other] = await cairn.remember({ content: `Ask ${OTHER} before touching the search index.` });
    cairn.forgetMemory({ id: memory!.id! });

    const report = cairn.purgeMemory({ id: memory!.id! });
    expect(report.memories).toBe(1);
    expect(cairn.storage.memories.get(memory!.id!)).toBeUndefined();
    expect(cairn.storage.memories.get(other!.id!)).toBeDefined();
    expect(storeFilesHolding(home, PLANTED)).toEqual([]);
    expect(() => cairn.purgeMemory({ id: memory!.id! })).toThrow(/no memory/);
    expect(() => cairn.purgeMemory({ text: "ab" })).toThrow(/at least 4 characters/);
  });

  it("memory purge of a word that is also one of cairn's own values leaves the store's structure alone", async () => {
    await cairn.remember({ content: "Global settings of the build live in tools/settings.json.", scope: "global" });
    await cairn.remember({ content: "Use pnpm for every install.", scope: "global", type: "preference" });
    session("open-1", OPEN, "I always run the global test suite before a release.");
    await cairn.run();

    expect(cairn.storage.stage1.selectionWorkspaces()).toContain("global");
    const report = cairn.purgeMemory({ text: "global" });
    expect(report.memories).toBeGreaterThanOrEqual(2);
    // Workspace names, scopes and job keys are cairn's own values, not text that was said.
    expect(cairn.storage.stage1.selectionWorkspaces()).toContain("global");
    expect(cairn.storage.stage1.selectionWorkspaces()).not.toContain("[purged]");
    // The other global memory keeps its scope and type; sessions, jobs and phase 2 still work.
    const left = (await cairn.recall({ query: "pnpm install", scope: "global" })).results;
    expect(left.map((result) => [result.content, result.type])).toContainEqual([
      "Use pnpm for every install.",
      "preference",
    ]);
    session("open-2", OPEN, "In this repo, tests run with make check.");
    const run = await cairn.run();
    expect(run.consolidate.outcome).toBe("succeeded");
    expect(run.extract.jobs.map((job) => job.outcome)).toEqual(["succeeded"]);
  });
});
