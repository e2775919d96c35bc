import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Cairn } from "../../src/cairn.js";
import { DAY_MS, HOUR_MS } from "../../src/util/clock.js";
import { RETENTION_KIND } from "../../src/workers/retentionWorker.js";
import { type TempHome, tempHome } from "../server/tempHome.js";

// The retention worker on the one queue: a sweep once a period in whichever process claims it, its
// stats in status, and a purged memory's text gone from the store's files, not only from its tables.

// Words the stemmer leaves whole, so the full-text index stores them as written.
const SECRET = "the vault passphrase is zorbulk quaxim";

/** Whether the store's files (database and write-ahead log) hold the text, in any letter case. */
function filesHold(home: string, text: string): boolean {
  return ["cairn.db", "cairn.db-wal"].some((name) => {
    const file = join(home, name);
    if (!existsSync(file)) return false;
    const bytes = readFileSync(file);
    return bytes.includes(Buffer.from(text)) || bytes.includes(Buffer.from(text.toLowerCase()));
  });
}

describe("retention worker", () => {
  let temp: TempHome;
  let cairn: Cairn;
  let now = Date.UTC(2026, 2, 1, 1);

  beforeEach(() => {
    temp = tempHome();
    now = Date.UTC(2026, 2, 1, 1);
    cairn = new Cairn({ home: temp.home, env: temp.env, clock: () => now });
  });

  afterEach(() => {
    cairn.close();
    temp.cleanup();
  });

  const tick = async () => {
    const worker = (await cairn.workers()).get("retention");
    if (!worker) throw new Error("no retention worker registered");
    return worker.tick();
  };

  it("purges a memory forgotten 31 days ago, and its text is gone from cairn.db and cairn.db-wal", async () => {
    const [stored] = await cairn.remember({ content: SECRET, cwd: temp.project, scope: "global" });
    const id = stored?.id;
    if (id === undefined) throw new Error("not stored");
    cairn.storage.search.addHints(id, ["what is zorbulk"], now);
    cairn.forgetMemory({ id });
    now += 31 * DAY_MS;
    // Forgotten, the text is still there (restore needs it): the check below can see it.
    expect(filesHold(temp.home, "zorbulk")).toBe(true);

    const cycle = await tick();
    expect(cycle.skipped).toBeUndefined();
    expect(cycle.processed).toBeGreaterThan(0);
    expect(cairn.memories.get(id)).toBeUndefined();
    // While the store is open (a daemon's), and after it closed.
    for (const word of ["zorbulk", "quaxim"]) expect(filesHold(temp.home, word)).toBe(false);
    cairn.close();
    for (const word of ["zorbulk", "quaxim"]) expect(filesHold(temp.home, word)).toBe(false);
    cairn = new Cairn({ home: temp.home, env: temp.env, clock: () => now });
  });

  it("rewrites the file after purging memories: no copy of their text in a free page or a page's free gap", async () => {
    // Letters only, so the tokenizer and the stemmer keep each marker whole.
    const marker = (n: number) =>
      `zqmark${String.fromCharCode(97 + (n % 26))}${String.fromCharCode(97 + Math.floor(n / 26))}xv`;
    const ids: number[] = [];
    for (let n = 0; n < 120; n++) {
      const [stored] = await cairn.remember({
        content: `note ${marker(n)} about the build cache layout and the runner pool ${"with padding words ".repeat(6)}`,
        cwd: temp.project,
        scope: "global",
      });
      if (stored?.id !== undefined) ids.push(stored.id);
    }
    // Forgetting grows a row (deleted_at), so full pages split and cells move between pages that keep
    // live rows: a moved cell's old bytes stay in the page's free gap, where no delete reaches them.
    const forgotten = ids.filter((_, n) => n % 3 === 0);
    for (const id of forgotten) cairn.forgetMemory({ id });
    now += 31 * DAY_MS;
    expect((await tick()).skipped).toBeUndefined();
    expect(forgotten.filter((id) => cairn.memories.get(id) !== undefined)).toEqual([]);
    // The file was rewritten: no free page, and no page gap, keeps an old copy.
    expect(cairn.storage.db.pragma("freelist_count", { simple: true })).toBe(0);
    const words = ids.map((_, n) => marker(n)).filter((_, n) => n % 3 === 0);
    const left = () => words.filter((word) => filesHold(temp.home, word));
    expect(left()).toEqual([]);
    cairn.close();
    expect(left()).toEqual([]);
    cairn = new Cairn({ home: temp.home, env: temp.env, clock: () => now });
  });

  it("keeps the rewrite pending while another process reads an old snapshot, and finishes it at the next sweep", async () => {
    const [stored] = await cairn.remember({ content: SECRET, cwd: temp.project, scope: "global" });
    cairn.forgetMemory({ id: stored!.id! });
    now += 31 * DAY_MS;
    // Another process's read transaction keeps the log's frames: the log cannot be emptied under it.
    const reader = new BetterSqlite3(join(temp.home, "cairn.db"), { readonly: true });
    try {
      reader.exec("BEGIN");
      reader.prepare("SELECT count(*) FROM memories").get();
      expect((await tick()).processed).toBeGreaterThan(0);
      expect(cairn.storage.meta.get("retention.rewritePending")).toBe(true);
      reader.exec("COMMIT");
    } finally {
      reader.close();
    }
    now += 6 * HOUR_MS;
    await tick();
    expect(cairn.storage.meta.get("retention.rewritePending")).toBeUndefined();
    for (const word of ["zorbulk", "quaxim"]) expect(filesHold(temp.home, word)).toBe(false);
  }, 60_000);

  it("sweeps once a period whichever process asks, reports its stats in status, and runs again next period", async () => {
    const first = await tick();
    expect(first.skipped).toBeUndefined();
    expect((await tick()).skipped).toBe("nothing due");
    // Another process on the same store sees this period's sweep done.
    const other = new Cairn({ home: temp.home, env: temp.env, clock: () => now });
    try {
      expect((await (await other.workers()).get("retention")?.tick())?.skipped).toBe("nothing due");
    } finally {
      other.close();
    }
    now += 6 * HOUR_MS;
    expect((await tick()).skipped).toBeUndefined();
    expect(cairn.storage.jobs.list({ kind: RETENTION_KIND })).toHaveLength(1);
    expect(cairn.status().workers.retention).toMatchObject({ skippedCycles: 2, lastCycleAt: now, lastError: null });
  });

  it("does not schedule itself when workers.retention.enabled is false", async () => {
    cairn.close();
    temp.cleanup();
    temp = tempHome({ "workers.retention": { enabled: false } });
    cairn = new Cairn({ home: temp.home, env: temp.env, clock: () => now });
    const worker = (await cairn.workers()).get("retention");
    expect(worker?.spec.scheduleOff).toBe("workers.retention.enabled is false");
    expect(worker?.start()).toBe(false);
  });
});
