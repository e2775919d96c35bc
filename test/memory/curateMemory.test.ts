import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Cairn } from "../../src/cairn.js";
import { projectIdentity } from "../../src/project/projectKey.js";
import { CairnError } from "../../src/util/errors.js";
import { type TempHome, tempHome } from "../server/tempHome.js";

// The memory service's curation through the library: what a person's forget, edit, restore and
// review decisions do to the store, its history, and the next phase 2.

let temp: TempHome;
let cairn: Cairn;
let now = Date.UTC(2026, 10, 1);

beforeEach(() => {
  temp = tempHome();
  cairn = new Cairn({ home: temp.home, env: temp.env, clock: () => now });
});

afterEach(() => {
  cairn.close();
  temp.cleanup();
});

async function remember(content: string, extra: { scope?: string; type?: "fact" | "decision" } = {}) {
  const [outcome] = await cairn.remember({ content, cwd: temp.project, ...extra });
  if (outcome?.status !== "created" || outcome.id === undefined) throw new Error(`not stored: ${content}`);
  now += 60_000;
  return outcome.id;
}

async function failure(action: () => unknown): Promise<{ code: string; message: string }> {
  try {
    await action();
  } catch (error) {
    if (CairnError.isInstance(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error("expected a CairnError");
}

const recallIds = async (query: string) =>
  (await cairn.recall({ query, cwd: temp.project, scope: "all" })).results.map((r) => r.id);

describe("forget, edit and restore one memory by id", () => {
  it("forgets: a tombstone out of recall, a history event, and the next phase 2 forced", async () => {
    const id = await remember("Deploys go through the staging cluster first");
    expect(cairn.storage.phase2.forceNextRequested()).toBe(false);
    expect(cairn.forgetMemory({ id, reason: "outdated" })).toMatchObject({
      change: "forgot",
      id,
      message: `forgot #${id}`,
    });
    expect(cairn.memories.get(id)?.deletedAt).not.toBeNull();
    expect(await recallIds("staging cluster deploys")).not.toContain(id);
    expect(cairn.memories.historyOf(id).map((e) => [e.event, e.who, e.reason])).toEqual([
      ["created", "user", null],
      ["deleted", "user", "outdated"],
    ]);
    expect(cairn.storage.phase2.forceNextRequested()).toBe(true);
    expect(await failure(() => cairn.forgetMemory({ id }))).toEqual({
      code: "memory_not_changed",
      message: `memory #${id} is already forgotten (restore brings it back)`,
    });
  });

  it("names an unknown id in a not-found error and changes nothing", async () => {
    for (const act of [
      () => cairn.forgetMemory({ id: 999 }),
      () => cairn.editMemory({ id: 999, content: "x" }),
      () => cairn.restoreMemory({ id: 999 }),
    ]) {
      expect(await failure(act)).toEqual({ code: "memory_not_found", message: "no memory #999; nothing was changed" });
    }
    expect(cairn.storage.phase2.forceNextRequested()).toBe(false);
  });

  it("edits: the new text supersedes the old one in its scope, and both histories say so", async () => {
    const id = await remember("The billing service uses MySQL", { scope: "global" });
    const change = await cairn.editMemory({ id, content: "The billing service uses Postgres 16", reason: "migrated" });
    expect(change).toMatchObject({ change: "replaced", id });
    const successor = change.replacedBy as number;
    expect(change.message).toBe(`#${id} replaced by #${successor}`);
    const old = cairn.memories.get(id);
    expect(old).toMatchObject({ supersededBy: successor, content: "The billing service uses MySQL" });
    expect(old?.deletedAt).not.toBeNull();
    expect(cairn.memories.get(successor)).toMatchObject({
      content: "The billing service uses Postgres 16",
      scope: "global",
      who: "user",
      deletedAt: null,
    });
    const superseded = cairn.memories.historyOf(id).at(-1);
    expect(superseded).toMatchObject({
      event: "superseded",
      oldContent: "The billing service uses MySQL",
      newContent: "The billing service uses Postgres 16",
      reason: "migrated",
      metadata: { supersededBy: successor },
    });
    expect(cairn.memories.historyOf(successor).map((e) => e.event)).toEqual(["created"]);
    expect(cairn.storage.memories.supersededBy([successor]).map((m) => m.id)).toEqual([id]);
    const ids = await recallIds("billing service database");
    expect(ids).toContain(successor);
    expect(ids).not.toContain(id);
    expect(cairn.storage.phase2.forceNextRequested()).toBe(true);
  });

  it("keeps the memory in the project scope it was stored in, whatever directory the edit comes from", async () => {
    const id = await remember("Run the linter before every commit");
    const change = await cairn.editMemory({ id, content: "Run biome check before every commit" });
    expect(cairn.memories.get(change.replacedBy as number)?.scope).toBe(projectIdentity(temp.project).key);
  });

  it("redacts a secret in the new text like remember does", async () => {
    const id = await remember("The API token lives in the vault");
    const change = await cairn.editMemory({
      id,
      content: "Use token ghp_R7kW2pQ9xZ4mN8vB3cL6tY1hJ5gF0dS2aE7u for the API",
    });
    const stored = cairn.memories.get(change.replacedBy as number)?.content ?? "";
    expect(stored).toContain("[REDACTED:github-token]");
    expect(stored).not.toContain("ghp_R7kW2pQ9xZ4mN8vB3cL6tY1hJ5gF0dS2aE7u");
  });

  it("strips a <private> block, and refuses a note that is all <private>, keeping the old memory", async () => {
    const id = await remember("The staging password is rotated monthly");
    const partly = await cairn.editMemory({
      id,
      content: "The staging password is rotated weekly <private>it is hunter2</private>",
    });
    const kept = cairn.memories.get(partly.replacedBy as number)?.content ?? "";
    expect(kept).toBe("The staging password is rotated weekly [REDACTED:private]");
    const successor = partly.replacedBy as number;
    expect(
      await failure(() => cairn.editMemory({ id: successor, content: "<private>it is hunter2</private>" })),
    ).toEqual({
      code: "memory_not_changed",
      message: `the new text of #${successor} has nothing left once <private> blocks and secrets are removed; nothing was changed (forget #${successor} to drop it)`,
    });
    expect(cairn.memories.get(successor)?.deletedAt).toBeNull();
    expect(JSON.stringify(cairn.memories.historyOf(successor))).not.toContain("hunter2");
  });

  it("refuses the content limit with the remember message, and an edit that changes nothing", async () => {
    const id = await remember("Tests run with vitest");
    expect(await failure(() => cairn.editMemory({ id, content: "x".repeat(10_001) }))).toEqual({
      code: "bad_input",
      message: "content must be at most 10000 characters (the limit for one memory); got 10001",
    });
    expect(await failure(() => cairn.editMemory({ id }))).toEqual({
      code: "bad_input",
      message: "content or type is required (what to change)",
    });
    expect(await failure(() => cairn.editMemory({ id, content: "  tests run with VITEST " }))).toEqual({
      code: "memory_not_changed",
      message: `memory #${id} already says that; nothing was changed`,
    });
    expect(cairn.memories.get(id)?.deletedAt).toBeNull();
  });

  it("changes the type alone: the same text as a new memory of the new type", async () => {
    const id = await remember("We use trunk-based development", { type: "fact" });
    const change = await cairn.editMemory({ id, type: "decision" });
    const successor = cairn.memories.get(change.replacedBy as number);
    expect(successor).toMatchObject({ content: "We use trunk-based development", type: "decision", deletedAt: null });
    expect(successor?.importance).toBeGreaterThan(cairn.memories.get(id)?.importance ?? 1);
    expect(cairn.memories.get(id)?.supersededBy).toBe(successor?.id);
  });

  it("refuses to edit or forget a replaced memory, pointing at its successor", async () => {
    const id = await remember("Builds use make");
    const { replacedBy } = await cairn.editMemory({ id, content: "Builds use just" });
    expect((await failure(() => cairn.editMemory({ id, content: "Builds use ninja" }))).message).toBe(
      `memory #${id} was replaced by #${replacedBy}; edit #${replacedBy} instead`,
    );
    expect((await failure(() => cairn.forgetMemory({ id }))).message).toBe(
      `memory #${id} was already replaced by #${replacedBy}; forget #${replacedBy} instead`,
    );
  });

  it("restores a forgotten memory into recall, with a history event", async () => {
    const id = await remember("The docs site is built with Astro");
    cairn.forgetMemory({ id });
    cairn.storage.phase2.clearForceNext();
    expect(cairn.restoreMemory({ id, reason: "still true" })).toMatchObject({
      change: "restored",
      message: `restored #${id}`,
    });
    expect(cairn.memories.get(id)?.deletedAt).toBeNull();
    expect(await recallIds("docs site Astro")).toContain(id);
    expect(cairn.memories.historyOf(id).map((e) => e.event)).toEqual(["created", "deleted", "restored"]);
    expect(cairn.storage.phase2.forceNextRequested()).toBe(true);
    expect((await failure(() => cairn.restoreMemory({ id }))).message).toBe(
      `memory #${id} is live; nothing to restore`,
    );
  });

  it("restores a replaced memory beside its successor, and says when a twin blocks it", async () => {
    const id = await remember("Releases are cut on Fridays");
    const { replacedBy } = await cairn.editMemory({ id, content: "Releases are cut on Mondays" });
    expect(cairn.restoreMemory({ id }).message).toBe(
      `restored #${id}; #${replacedBy}, which replaced it, stays (forget it to undo the edit)`,
    );
    expect(cairn.memories.get(id)).toMatchObject({ deletedAt: null, supersededBy: null });

    const typed = await remember("Feature flags live in LaunchDarkly", { type: "fact" });
    const retyped = await cairn.editMemory({ id: typed, type: "decision" });
    expect(await failure(() => cairn.restoreMemory({ id: typed }))).toEqual({
      code: "memory_not_changed",
      message: `memory #${typed} cannot come back while #${retyped.replacedBy} says the same in its scope (forget #${retyped.replacedBy} first)`,
    });
  });
});
