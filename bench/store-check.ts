// What finding damage costs (issue 33): the full `PRAGMA quick_check` a large store gets at most once an
// hour (at the first open after that, and on the daemon's schedule), the open of a store checked within
// the hour, and the guard every write transaction runs (is the store marked damaged, is its path still
// the file this connection opened). Run: npx tsx bench/store-check.ts [--mb 40,200] [--runs 3]

import { mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { openDatabase } from "../src/store/connection.js";
import { assertStoreUsable, checkedMarkerPath } from "../src/store/storeCheck.js";
import { assertStoreStillOpen } from "../src/store/storeIdentity.js";
import { withWriteTx } from "../src/store/tx.js";
import { growStore } from "../test/helpers/largeStore.js";

const { values } = parseArgs({
  options: { mb: { type: "string", default: "40,200" }, runs: { type: "string", default: "3" } },
});
const sizes = values.mb.split(",").map(Number);
const runs = Math.max(1, Number(values.runs));
const root = join(tmpdir(), `cairn-bench-check-${process.pid}`);

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function timed(fn: () => void): number {
  const started = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

const rows: string[] = [];
try {
  for (const mb of sizes) {
    const dir = join(root, `${mb}mb`);
    mkdirSync(dir, { recursive: true });
    const path = join(dir, "cairn.db");
    openDatabase(path).db.close();
    growStore(path, mb * 1024 * 1024);
    const bytes = statSync(path).size;
    // Due: no record of a full check. Not due: checked a moment ago, the file changed since (a write).
    const full = median(
      Array.from({ length: runs }, () => {
        rmSync(checkedMarkerPath(path), { force: true });
        return timed(() => assertStoreUsable(path));
      }),
    );
    const skipped = median(
      Array.from({ length: runs }, () => {
        writeFileSync(checkedMarkerPath(path), `changed since\n${Date.now()}\n`);
        return timed(() => assertStoreUsable(path));
      }),
    );
    const { db } = openDatabase(path);
    const calls = 100_000;
    const guard =
      (timed(() => {
        for (let i = 0; i < calls; i++) assertStoreStillOpen(db);
      }) *
        1000) /
      calls;
    // For scale: one small write transaction (the guard runs once per such transaction).
    db.exec("CREATE TABLE IF NOT EXISTS bench_rows (value TEXT)");
    const insert = db.prepare("INSERT INTO bench_rows (value) VALUES (?)");
    const writes = 5_000;
    const write =
      (timed(() => {
        for (let i = 0; i < writes; i++) withWriteTx(db, () => insert.run(`row ${i}`));
      }) *
        1000) /
      writes;
    db.close();
    rows.push(
      `| ${(bytes / 1024 / 1024).toFixed(1)} MB | ${full.toFixed(0)} ms (${(full / (bytes / 1024 / 1024)).toFixed(2)} ms/MB) | ${skipped.toFixed(2)} ms | ${guard.toFixed(1)} µs of a ${write.toFixed(0)} µs one-row write |`,
    );
    rmSync(dir, { recursive: true, force: true });
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
console.log(
  "| store | full quick_check (at most once an hour) | open checked within the hour | write guard per transaction |",
);
console.log("|---|---|---|---|");
for (const row of rows) console.log(row);
