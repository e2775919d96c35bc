import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Cairn } from "../../src/index.js";
import { excludingCairn } from "../helpers/excludingCairn.js";
import { saidSession } from "../helpers/saidSession.js";

// Two repositories; the user later decides that what cairn learned in the client's one must go.
const CLIENT = "/work/secret-client";
const SHOP = "/work/shop";

describe("memories.exclude set after cairn learned from a session", () => {
  let home: string;
  let now: number;
  let cairn: Cairn;

  const open = (exclude: string[] = []) => excludingCairn(home, () => now, { exclude });
  const session = (id: string, cwd: string, said: string) => saidSession(cairn, { id, cwd, said }, (ms) => (now += ms));
  const contents = async (query: string) =>
    (await cairn.recall({ query, scope: "all" })).results.map((result) => result.content);
  const workspaces = () => JSON.parse(readFileSync(join(home, "memories", "projects.json"), "utf8")) as unknown;

  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), "cairn-excluded-"));
    now = Date.parse("2026-10-01T10:00:00.000Z");
    cairn = open();
  });
  afterEach(() => {
    cairn.close();
    rmSync(home, { recursive: true, force: true });
  });

  it("erases what the session taught, brings back what it had replaced, and removes its workspace", async () => {
    session("shop-1", SHOP, "I always use npm in all my projects. Always deploy with make ship in this repo.");
    // Said later, so it replaces the shop's preference for every project.
    const pnpm = "From now on I use pnpm instead of npm in all my projects.";
    session("client-1", CLIENT, `${pnpm} Never commit the API fixtures in this repo.`);
    await cairn.run();
    expect(await contents("pnpm")).toContain(pnpm);
    expect(await contents("npm")).not.toContain("I always use npm in all my projects.");
    expect(JSON.stringify(workspaces())).toContain("secret-client");

    cairn.close();
    cairn = open([`${CLIENT}/**`]);
    const run = await cairn.run();
    expect(run.maintenance.excluded).toMatchObject({ sessions: 1, stage1Outputs: 1, memories: 2, restored: 1 });

    // Nothing of the client's session is recalled, and the preference it had replaced is current again.
    expect(await contents("commit API fixtures")).toEqual([]);
    expect(await contents("pnpm")).not.toContain(pnpm);
    expect(await contents("npm")).toContain("I always use npm in all my projects.");
    expect(await contents("deploy make ship")).toContain("Always deploy with make ship in this repo.");
    const restored = (await cairn.recall({ query: "npm", scope: "all" })).results.find((result) =>
      result.content.startsWith("I always use npm"),
    )!;
    const history = cairn.memoryHistory({ id: restored.id }).events;
    expect(history.at(-1)).toMatchObject({ event: "restored", reason: expect.stringContaining("memories.exclude") });
    // Its "superseded" event quoted the erased successor: gone with it.
    expect(JSON.stringify(history)).not.toContain("pnpm");

    // The client's workspace is gone (its files and the index entry), the shop's is not.
    const removed = run.consolidate.workspaces.find((workspace) => workspace.workspace === `path:${CLIENT}`);
    expect(removed?.outcome).toBe("removed");
    expect(existsSync(removed!.dir)).toBe(false);
    expect(JSON.stringify(workspaces())).not.toContain("secret-client");
    expect(JSON.stringify(workspaces())).toContain("shop");
    const global = readFileSync(join(home, "memories", "global", "MEMORY.md"), "utf8");
    expect(global).not.toContain("pnpm");
    expect(global).toContain("npm");

    // Nothing left to erase: the next run does no such work.
    expect((await cairn.run()).maintenance.excluded).toBeUndefined();
  });

  it("leaves no rebuild pending for a workspace that was never built", async () => {
    session("shop-1", SHOP, "I always use npm in all my projects.");
    session("client-1", CLIENT, "Never commit the API fixtures in this repo.");
    // Extracted, never consolidated: the client's project has no workspace yet.
    await cairn.extract();
    cairn.close();
    cairn = open([`${CLIENT}/**`]);
    const run = await cairn.run();
    expect(run.maintenance.excluded).toMatchObject({ sessions: 1, rebuild: ["global", `path:${CLIENT}`] });
    expect(cairn.storage.phase2.rebuildRequested()).toEqual([]);
    // So the next run has nothing to do, instead of consolidating every run to clear it.
    expect((await cairn.run()).consolidate.outcome).toBe("clean");
  });
});
