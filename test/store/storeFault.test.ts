import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { damagedMarkerPath, explainStoreError, storeFaultOf } from "../../src/store/storeFault.js";
import { CairnError } from "../../src/util/errors.js";

const sqlite = (code: string, message: string) => new BetterSqlite3.SqliteError(message, code);
const dir = mkdtempSync(join(tmpdir(), "cairn-fault-"));
const store = join(dir, "cairn.db");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("store faults", () => {
  it("are told apart by SQLite result code, also when wrapped as the cause of another error", () => {
    expect(storeFaultOf(sqlite("SQLITE_CORRUPT", "database disk image is malformed"))).toBe("damaged");
    expect(storeFaultOf(sqlite("SQLITE_NOTADB", "file is not a database"))).toBe("damaged");
    expect(storeFaultOf(new CairnError("store_unreadable", "x", { cause: sqlite("SQLITE_FULL", "full") }))).toBe(
      "full",
    );
    expect(storeFaultOf(sqlite("SQLITE_READONLY_DBMOVED", "moved"))).toBe("readonly");
    expect(storeFaultOf(sqlite("SQLITE_CONSTRAINT_UNIQUE", "unique"))).toBeUndefined();
    expect(storeFaultOf(new Error("provider said no"))).toBeUndefined();
  });

  it("become one line naming the store and what to do; a damaged store is marked for later commands", () => {
    const damaged = explainStoreError(sqlite("SQLITE_CORRUPT", "database disk image is malformed"), store);
    expect((damaged as CairnError).message).toBe(
      `the store at ${store} is damaged (database disk image is malformed); cairn writes nothing to it. Run 'cairn doctor' to see what is readable, then 'cairn doctor --repair' to keep the damaged file aside and rebuild the store from it`,
    );
    expect(existsSync(damagedMarkerPath(store))).toBe(true);
    const full = explainStoreError(sqlite("SQLITE_FULL", "database or disk is full"), store) as CairnError;
    expect(full.code).toBe("disk_full");
    expect(full.message).toContain(`the disk holding ${store} is full`);
    const other = new Error("provider said no");
    expect(explainStoreError(other, store)).toBe(other);
  });
});
