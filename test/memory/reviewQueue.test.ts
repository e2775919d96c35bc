import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Cairn } from "../../src/cairn.js";
import { CairnError } from "../../src/util/errors.js";
import { parseSupersededFile, SUPERSEDED_FILE } from "../../src/workspace/supersededFile.js";
import { type TempHome, tempHome } from "../server/tempHome.js";

// `cairn memory review` through the library: open flags (rows as a contradiction detector writes them)
// listed with both sides, and each decision's effect on the memories, the flag and the next phase 2.

let temp: TempHome;
let cairn: Cairn;
let now = Date.UTC(2026, 10, 1, 9, 0);

beforeEach(() => {
  temp = tempHome();
  cairn = new Cairn({ home: temp.home, env: temp.env, clock: () => now });
});

afterEach(() => {
  cairn.close();
  temp.cleanup();
});

async function remember(content: string, options: { scope?: string; cwd?: string } = {}) {
  const [outcome] = await cairn.remember({ content, cwd: options.cwd ?? temp.project, ...options });
  now += 86_400_000;
  return outcome?.id as number;
}

function flag(memoryId: number, extra: { relatedId?: number; proposedContent?: string } = {}) {
  return cairn.storage.reviews.add({
    memoryId,
    reason: "contradicts a newer memory",
    detector: "syntactic",
    now,
    ...extra,
  });
}

async function failure(action: () => unknown): Promise<string> {
  try {
    await action();
  } catch (error) {
    if (CairnError.isInstance(error)) return `${error.code}: ${error.message}`;
    throw error;
  }
  throw new Error("expected a CairnError");
}

describe("memory review", () => {
  it("lists open flags of this project and global with both sides, every scope with all", async () => {
    const old = await remember("Deploys go through Heroku");
    const newer = await remember("Deploys go through Fly.io now");
    const global = await remember("Answers are in English", { scope: "global" });
    const elsewhere = await remember("The other app uses Rails", { cwd: temp.root });
    const first = flag(old, { relatedId: newer });
    const second = flag(global, { proposedContent: "Answers are in French" });
    const third = flag(elsewhere, { proposedContent: "The other app uses Django" });

    const listed = cairn.reviews({ cwd: temp.project });
    expect(listed.map((entry) => entry.flag)).toEqual([first, second]);
    expect(listed[0]).toMatchObject({
      reason: "contradicts a newer memory",
      detector: "syntactic",
      memory: { id: old, content: "Deploys go through Heroku", state: "live", createdAt: Date.UTC(2026, 10, 1, 9, 0) },
      related: { id: newer, content: "Deploys go through Fly.io now", createdAt: Date.UTC(2026, 10, 2, 9, 0) },
      relatedIs: "newer",
      proposedContent: null,
    });
    expect(listed[1]).toMatchObject({ related: null, proposedContent: "Answers are in French" });
    expect(cairn.reviews({ cwd: temp.project, scope: "all" }).map((entry) => entry.flag)).toEqual([
      first,
      second,
      third,
    ]);
    expect(cairn.reviews({ cwd: temp.project, scope: "global" }).map((entry) => entry.flag)).toEqual([second]);
  });

  it("says which side was said first, whatever order the two were stored in", async () => {
    // Extraction stores sessions' facts as each finishes: the newer statement can get the lower id.
    const [newer] = await cairn.remember({
      content: "Deploys go through Fly.io now",
      cwd: temp.project,
      occurredAt: "2026-10-20",
    });
    const [older] = await cairn.remember({
      content: "Deploys go through Heroku",
      cwd: temp.project,
      occurredAt: "2026-09-01",
    });
    flag(newer!.id!, { relatedId: older!.id! });
    const [entry] = cairn.reviews({ cwd: temp.project });
    expect(entry).toMatchObject({ memory: { id: newer!.id }, related: { id: older!.id }, relatedIs: "older" });
  });

  it("keep closes the flag and changes no memory", async () => {
    const old = await remember("Deploys go through Heroku");
    const newer = await remember("Deploys go through Fly.io now");
    const id = flag(old, { relatedId: newer });
    const change = await cairn.resolveReview({ flag: id, action: "keep" });
    expect(change).toMatchObject({ change: "kept", id: old, flag: id, message: `kept #${old} (flag #${id} resolved)` });
    expect(cairn.storage.reviews.get(id)).toMatchObject({ resolution: "kept", resolvedAt: now });
    expect(cairn.memories.get(old)?.deletedAt).toBeNull();
    expect(cairn.memories.get(newer)?.deletedAt).toBeNull();
    expect(cairn.reviews({ cwd: temp.project })).toEqual([]);
    expect(cairn.storage.phase2.forceNextRequested()).toBe(false);
  });

  it("supersede lets the related memory replace the flagged one", async () => {
    const old = await remember("Deploys go through Heroku");
    const newer = await remember("Deploys go through Fly.io now");
    const id = flag(old, { relatedId: newer });
    const change = await cairn.resolveReview({ flag: id, action: "supersede" });
    expect(change.message).toBe(`#${old} replaced by #${newer} (flag #${id} resolved)`);
    expect(cairn.memories.get(old)?.supersededBy).toBe(newer);
    expect(cairn.memories.historyOf(old).at(-1)).toMatchObject({
      event: "superseded",
      who: "user",
      reason: `review flag #${id}: contradicts a newer memory`,
      metadata: { supersededBy: newer },
    });
    expect(cairn.storage.reviews.get(id)?.resolution).toBe("superseded");
    expect(cairn.storage.phase2.forceNextRequested()).toBe(true);
  });

  it("supersede stores a proposed fact like remember and lets it replace the flagged memory", async () => {
    const old = await remember("The API listens on port 8080");
    const id = flag(old, { proposedContent: "The API listens on port 9090" });
    const change = await cairn.resolveReview({ flag: id, action: "supersede" });
    const successor = cairn.memories.get(change.replacedBy as number);
    expect(successor).toMatchObject({ content: "The API listens on port 9090", deletedAt: null, who: "user" });
    expect(successor?.scope).toBe(cairn.memories.get(old)?.scope);
    expect(cairn.memories.get(old)?.supersededBy).toBe(successor?.id);
    expect(cairn.storage.reviews.get(id)?.resolution).toBe("superseded");
  });

  it("forget tombstones the flagged memory and keeps the other side", async () => {
    const old = await remember("Deploys go through Heroku");
    const newer = await remember("Deploys go through Fly.io now");
    const id = flag(old, { relatedId: newer });
    expect((await cairn.resolveReview({ flag: id, action: "forget" })).message).toBe(
      `forgot #${old} (flag #${id} resolved)`,
    );
    expect(cairn.memories.get(old)).toMatchObject({ supersededBy: null });
    expect(cairn.memories.get(old)?.deletedAt).not.toBeNull();
    expect(cairn.memories.get(newer)?.deletedAt).toBeNull();
    expect(cairn.memories.historyOf(old).at(-1)).toMatchObject({ event: "deleted", who: "user" });
    expect(cairn.storage.reviews.get(id)?.resolution).toBe("forgotten");
  });

  it("closes the flags of a memory that stops being live another way, and only those", async () => {
    const heroku = await remember("Deploys go through Heroku");
    const fly = await remember("Deploys go through Fly.io now");
    const port = await remember("The API listens on port 8080");
    const replaced = flag(heroku, { relatedId: fly });
    const alsoReplaced = flag(heroku, { proposedContent: "Deploys go through Render" });
    const forgotten = flag(port, { proposedContent: "The API listens on port 9090" });
    const open = flag(fly, { proposedContent: "Deploys go through Render" });

    cairn.memories.supersede(heroku, fly, { who: "user" });
    cairn.forgetMemory({ id: port });
    expect(cairn.storage.reviews.get(replaced)).toMatchObject({ resolution: "superseded", resolvedAt: now });
    expect(cairn.storage.reviews.get(alsoReplaced)?.resolution).toBe("superseded");
    expect(cairn.storage.reviews.get(forgotten)?.resolution).toBe("forgotten");
    expect(cairn.reviews({ cwd: temp.project }).map((entry) => entry.flag)).toEqual([open]);

    // An edit replaces the memory too.
    await cairn.editMemory({ id: fly, content: "Deploys go through Render" });
    expect(cairn.storage.reviews.get(open)?.resolution).toBe("superseded");
    expect(cairn.reviews({ cwd: temp.project })).toEqual([]);
  });

  it("lists a doubted memory for the injection guard at once, and takes it off when the flag is kept", async () => {
    const guard = () => parseSupersededFile(readFileSync(join(cairn.paths.memories, SUPERSEDED_FILE), "utf8"));
    const [mysql] = await cairn.remember({
      content: "The database runs on MySQL 8 in docker-compose",
      cwd: temp.project,
    });
    const [postgres] = await cairn.remember({ content: "The database is now Postgres 16", cwd: temp.project });
    const flagged = postgres?.flagged?.[0];
    expect(flagged?.with).toBe(mysql?.id);
    expect(guard()).toEqual([
      expect.objectContaining({
        statement: "The database runs on MySQL 8 in docker-compose",
        replacement: "The database is now Postgres 16",
        doubted: true,
      }),
    ]);
    await cairn.resolveReview({ flag: flagged!.flag, action: "keep" });
    expect(guard()).toEqual([]);
  });

  it("says why a flag cannot be decided, and leaves it open", async () => {
    const old = await remember("Deploys go through Heroku");
    const newer = await remember("Deploys go through Fly.io now");
    expect(await failure(() => cairn.resolveReview({ flag: 404, action: "keep" }))).toBe(
      "review_not_found: no review flag #404; nothing was changed",
    );
    const bare = cairn.storage.reviews.add({ memoryId: old, reason: "unsure", detector: "user", now });
    expect(await failure(() => cairn.resolveReview({ flag: bare, action: "supersede" }))).toBe(
      `memory_not_changed: review flag #${bare} names nothing to replace #${old} with; keep or forget it`,
    );
    const id = flag(old, { relatedId: newer });
    cairn.forgetMemory({ id: newer });
    expect(await failure(() => cairn.resolveReview({ flag: id, action: "supersede" }))).toBe(
      `memory_not_changed: #${newer}, the memory meant to replace #${old}, is forgotten; restore it first, or keep or forget #${old}`,
    );
    expect(cairn.storage.reviews.get(id)?.resolvedAt).toBeNull();
    expect(await failure(() => cairn.resolveReview({ flag: id, action: "drop" }))).toBe(
      "bad_input: action must be one of keep, supersede, forget",
    );
    await cairn.resolveReview({ flag: id, action: "keep" });
    expect(await failure(() => cairn.resolveReview({ flag: id, action: "forget" }))).toBe(
      `memory_not_changed: review flag #${id} was already resolved (kept); nothing was changed`,
    );
  });
});
