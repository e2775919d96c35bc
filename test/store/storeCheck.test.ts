import { existsSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../../src/store/connection.js";
import {
  assertStoreUsable,
  checkBeforeLeaving,
  checkedMarkerPath,
  checkStoreIfDue,
  FULL_CHECK_INTERVAL_MS,
  recordKnownClean,
} from "../../src/store/storeCheck.js";
import { damagedMarkerPath } from "../../src/store/storeFault.js";
import { runCli } from "../helpers/runCli.js";
import { tempDir } from "../helpers/tempDir.js";

/** A store of a few hundred pages on disk, checkpointed, closed. */
function makeStore(): string {
  const path = join(tempDir("cairn-store-check-"), "cairn.db");
  const { db } = openDatabase(path);
  db.exec("CREATE TABLE filler (id INTEGER PRIMARY KEY, text TEXT)");
  const insert = db.prepare("INSERT INTO filler (text) VALUES (?)");
  for (let i = 0; i < 400; i++) insert.run(`row ${i} ${"the parser keeps dates in UTC ".repeat(40)}`);
  db.pragma("wal_checkpoint(TRUNCATE)");
  db.close();
  return path;
}

/** Garbage over the middle pages, the size unchanged; optionally the modification time set back. */
function garbleMiddle(path: string, keepTimes = false): void {
  const before = statSync(path);
  const bytes = readFileSync(path);
  const pages = Math.floor(bytes.length / 4096);
  for (let page = Math.floor(pages * 0.4); page < Math.floor(pages * 0.6); page++)
    for (let offset = page * 4096; offset < (page + 1) * 4096; offset += 7) bytes[offset] = (offset * 31) % 256;
  writeFileSync(path, bytes);
  if (keepTimes) utimesSync(path, before.atime, before.mtime);
}

describe("the store check at open", () => {
  it("records a store found clean and refuses it once damaged, even with its modification time set back", () => {
    for (const keepTimes of [false, true]) {
      const path = makeStore();
      assertStoreUsable(path);
      recordKnownClean(path);
      expect(existsSync(checkedMarkerPath(path))).toBe(true);
      assertStoreUsable(path);
      garbleMiddle(path, keepTimes);
      expect(() => assertStoreUsable(path)).toThrow(/is damaged/);
      expect(existsSync(damagedMarkerPath(path))).toBe(true);
    }
  });

  it("a process leaving after writes checks the store and records it clean, or marks it damaged", () => {
    const path = makeStore();
    assertStoreUsable(path, 1_000);
    const { db } = openDatabase(path);
    db.prepare("INSERT INTO filler (text) VALUES (?)").run("written by a resident process");
    db.close();
    // Changed since the record: checked now, and the time of that full check recorded.
    checkBeforeLeaving(path, 2_000);
    expect(readFileSync(checkedMarkerPath(path), "utf8").split("\n")[1]).toBe("2000");
    // Unchanged since: nothing read, nothing written.
    checkBeforeLeaving(path, 3_000);
    expect(readFileSync(checkedMarkerPath(path), "utf8").split("\n")[1]).toBe("2000");
    // And the next open finds it known clean: it would check (and record the time) otherwise.
    assertStoreUsable(path, 4_000);
    expect(readFileSync(checkedMarkerPath(path), "utf8").split("\n")[1]).toBe("2000");
    garbleMiddle(path);
    expect(() => checkBeforeLeaving(path, 5_000)).toThrow(/is damaged/);
    expect(existsSync(damagedMarkerPath(path))).toBe(true);
  });

  it("records nothing for a store this process did not open known clean", () => {
    const path = makeStore();
    recordKnownClean(path);
    expect(existsSync(checkedMarkerPath(path))).toBe(false);
  });

  it("a store a command left clean and something else damaged is still refused by the next command", () => {
    const home = tempDir("cairn-store-check-cli-");
    const env = { CAIRN_HOME: home, HOME: home };
    expect(
      runCli(["remember", "Deploys go through the staging cluster first.", "--scope", "global"], { env }).status,
    ).toBe(0);
    const store = join(home, "cairn.db");
    const { db } = openDatabase(store);
    db.exec("CREATE TABLE filler (id INTEGER PRIMARY KEY, text TEXT)");
    const insert = db.prepare("INSERT INTO filler (text) VALUES (?)");
    for (let i = 0; i < 400; i++) insert.run(`row ${i} ${"tests run with pnpm ".repeat(60)}`);
    db.pragma("wal_checkpoint(TRUNCATE)");
    db.close();
    const recall = runCli(["recall", "staging deploys"], { env });
    expect(recall.status, recall.stderr).toBe(0);
    expect(existsSync(checkedMarkerPath(store))).toBe(true);
    garbleMiddle(store);
    const refused = runCli(["recall", "staging deploys"], { env });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(`the store at ${store} is damaged`);
  });

  it("a process that keeps the store open reads it whole at most once an hour and marks the damage it finds", () => {
    const path = makeStore();
    const now = Date.parse("2026-10-01T10:00:00.000Z");
    expect(checkStoreIfDue(path, now)).toBe(true);
    expect(checkStoreIfDue(path, now + FULL_CHECK_INTERVAL_MS - 1)).toBe(false);
    garbleMiddle(path);
    // Within the hour nothing reads it; the next check after the hour finds the damage and marks it.
    expect(checkStoreIfDue(path, now + FULL_CHECK_INTERVAL_MS - 1)).toBe(false);
    expect(() => checkStoreIfDue(path, now + FULL_CHECK_INTERVAL_MS)).toThrow(/is damaged/);
    expect(existsSync(damagedMarkerPath(path))).toBe(true);
  });
});
