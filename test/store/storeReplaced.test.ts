import { existsSync, renameSync, statSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Cairn } from "../../src/cairn.js";
import { createHttpApp } from "../../src/server/createHttpApp.js";
import { damagedMarkerPath, markDamaged } from "../../src/store/storeFault.js";
import { acquireRunLock } from "../../src/workers/runLock.js";
import { oneErrorLine } from "../helpers/errorLine.js";
import { runCli } from "../helpers/runCli.js";
import { tempDir } from "../helpers/tempDir.js";

const open: Cairn[] = [];

function openCairn(home: string): Cairn {
  const cairn = new Cairn({ home, env: { HOME: home }, config: { "llm.provider": "offline" } });
  open.push(cairn);
  return cairn;
}

afterEach(() => {
  for (const cairn of open.splice(0)) cairn.close();
});

/**
 * Moves the store aside with its WAL and shared memory and puts a copy in its place, as a repair of an
 * older cairn did (or a restore from a backup): a new file at the path, the old one still open here.
 */
function replaceStore(cairn: Cairn): void {
  const store = cairn.paths.database;
  const copy = `${store}.copy`;
  cairn.storage.db.exec(`VACUUM INTO '${copy}'`);
  for (const suffix of ["", "-wal", "-shm"])
    if (existsSync(store + suffix)) renameSync(store + suffix, `${store}.aside${suffix}`);
  renameSync(copy, store);
}

async function found(home: string, text: string): Promise<boolean> {
  const reader = openCairn(home);
  const response = await reader.recall({ query: text, scope: "global" });
  return response.results.some((result) => result.content === text);
}

describe("a store replaced or marked damaged while a process has it open", () => {
  it("cairn doctor --repair refuses while another process has the store open, naming what to stop", async () => {
    const home = join(tempDir("cairn-held-"), "home");
    const holder = openCairn(home);
    await holder.remember({ content: "Deploys go through the staging cluster first.", scope: "global" });
    markDamaged(holder.paths.database, "found by a test");
    // Compared by stat: reading the file here would drop this process's SQLite locks on it (POSIX
    // releases a process's locks when it closes any descriptor of the file).
    const stamp = () => {
      const stat = statSync(holder.paths.database);
      return `${stat.ino} ${stat.size} ${stat.mtimeMs}`;
    };
    const before = stamp();

    const refused = runCli(["doctor", "--repair"], { env: { CAIRN_HOME: home, HOME: home } });
    expect(refused.status).toBe(1);
    expect(oneErrorLine(refused.stderr)).toMatch(
      /'cairn serve' daemon, a 'cairn mcp' server or a 'cairn run'\) has the store at .* open; stop it, then run 'cairn doctor --repair' again/,
    );
    expect(stamp()).toBe(before);
    expect(existsSync(damagedMarkerPath(holder.paths.database))).toBe(true);

    holder.close();
    const repaired = runCli(["doctor", "--repair"], { env: { CAIRN_HOME: home, HOME: home } });
    expect(repaired.status, repaired.stderr).toBe(0);
    expect(repaired.stdout).toContain("damaged file kept as");
    expect(existsSync(damagedMarkerPath(holder.paths.database))).toBe(false);
    expect(await found(home, "Deploys go through the staging cluster first.")).toBe(true);
  });

  it("cairn doctor --repair refuses while a background run holds the run lock, naming it", async () => {
    const home = join(tempDir("cairn-run-lock-"), "home");
    const cairn = openCairn(home);
    await cairn.remember({ content: "A memory before the damage.", scope: "global" });
    cairn.close();
    markDamaged(cairn.paths.database, "found by a test");
    const lock = acquireRunLock(home);
    expect(lock).toBeDefined();
    try {
      const refused = runCli(["doctor", "--repair"], { env: { CAIRN_HOME: home, HOME: home } });
      expect(refused.status).toBe(1);
      expect(oneErrorLine(refused.stderr)).toContain(
        `a background 'cairn run' (pid ${process.pid}) has the store at ${cairn.paths.database} open; stop it`,
      );
    } finally {
      lock?.release();
    }
    expect(existsSync(damagedMarkerPath(cairn.paths.database))).toBe(true);
  });

  it("the daemon's API reopens a store replaced under it: an acknowledged write is in the store at the path", async () => {
    const home = join(tempDir("cairn-replaced-"), "home");
    const daemon = openCairn(home);
    const app = createHttpApp({ cairn: daemon });
    const remember = (content: string) =>
      app.request("/api/memory/remember", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ content, scope: "global" }),
      });
    expect((await remember("Before the swap the tests run with vitest.")).status).toBe(200);
    replaceStore(daemon);
    expect((await remember("After the swap the linter runs first.")).status).toBe(200);
    expect(await found(home, "After the swap the linter runs first.")).toBe(true);
    expect(await found(home, "Before the swap the tests run with vitest.")).toBe(true);
  });

  it("a damaged page met by a request marks the store: the daemon's next write is refused, not answered 200", async () => {
    const home = join(tempDir("cairn-api-damage-"), "home");
    const daemon = openCairn(home);
    const app = createHttpApp({ cairn: daemon });
    const post = (path: string, body: unknown) =>
      app.request(path, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    expect((await post("/api/memory/remember", { content: "Stored while healthy.", scope: "global" })).status).toBe(
      200,
    );
    // The page a recall reads is damaged (SQLite's own error, as better-sqlite3 raises it).
    vi.spyOn(daemon, "recall").mockRejectedValueOnce(
      new Database.SqliteError("database disk image is malformed", "SQLITE_CORRUPT"),
    );
    const recall = await post("/api/memory/recall", { query: "healthy", scope: "global" });
    expect(recall.status).toBe(500);
    expect(((await recall.json()) as { error: string }).error).toContain("is damaged");
    expect(existsSync(damagedMarkerPath(daemon.paths.database))).toBe(true);
    const remember = await post("/api/memory/remember", { content: "Not into a damaged store.", scope: "global" });
    expect(remember.status).toBe(500);
    expect(((await remember.json()) as { error: string }).error).toContain("is damaged");
  });

  it("a write through a connection whose file was replaced is refused, and one into a store marked damaged", async () => {
    const home = join(tempDir("cairn-stale-"), "home");
    const stale = openCairn(home);
    await stale.remember({ content: "The first memory.", scope: "global" });
    replaceStore(stale);
    await expect(stale.remember({ content: "Lost in the old file.", scope: "global" })).rejects.toMatchObject({
      code: "store_replaced",
    });
    expect(await found(home, "Lost in the old file.")).toBe(false);

    const holder = openCairn(home);
    await holder.remember({ content: "Stored before the damage was found.", scope: "global" });
    // Another command met a damaged page and left the marker.
    markDamaged(holder.paths.database, "found by another command");
    await expect(holder.remember({ content: "Not into a damaged store.", scope: "global" })).rejects.toMatchObject({
      code: "store_damaged",
    });
  });
});
