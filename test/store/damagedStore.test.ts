import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Cairn } from "../../src/cairn.js";
import { oneErrorLine } from "../helpers/errorLine.js";
import { runCli } from "../helpers/runCli.js";

/** A real store on disk: 40 sessions of long items (most of the file), then a few memories. */
async function seedStore(home: string): Promise<void> {
  const cairn = new Cairn({ home, env: { CAIRN_HOME: home } });
  try {
    for (let s = 0; s < 40; s++) {
      for (let i = 0; i < 12; i++) {
        cairn.appendHistory(`session-${s}`, {
          role: i % 2 === 0 ? "user" : "assistant",
          text: `session ${s} turn ${i}: ${"the parser keeps dates in UTC and tests run with pnpm ".repeat(8)}`,
        });
      }
    }
    await cairn.remember({ content: "Deploys go through the staging cluster first.", scope: "global" });
  } finally {
    cairn.close();
  }
  const db = new Database(join(home, "cairn.db"));
  db.pragma("wal_checkpoint(TRUNCATE)");
  db.close();
}

/**
 * Garbage over the middle of the items table's leaf pages, leaving the header, the schema and the other
 * tables intact (chosen through dbstat, so a schema change that moves tables around keeps the test true).
 */
function garbleMiddle(path: string): void {
  const db = new Database(path, { readonly: true });
  const leaves = (
    db.prepare("SELECT pageno FROM dbstat WHERE name = 'items' AND pagetype = 'leaf' ORDER BY pageno").all() as {
      pageno: number;
    }[]
  ).map((row) => row.pageno);
  db.close();
  const bytes = readFileSync(path);
  const pageSize = 4096;
  for (const page of leaves.slice(Math.floor(leaves.length * 0.3), Math.floor(leaves.length * 0.7))) {
    const start = (page - 1) * pageSize;
    for (let offset = start; offset < start + pageSize; offset += 7) bytes[offset] = (offset * 31) % 256;
  }
  writeFileSync(path, bytes);
}

describe("a store with garbage pages in the middle", () => {
  let root: string;
  let home: string;
  let store: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), "cairn-damaged-"));
    home = join(root, "home");
    store = join(home, "cairn.db");
    env = { CAIRN_HOME: home, HOME: root };
    await seedStore(home);
    garbleMiddle(store);
  });

  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("is refused by every command with one line naming the store and what to do, and never written", () => {
    const before = readFileSync(store);
    for (const args of [["remember", "a new fact that must not go into a damaged store"], ["status"], ["sessions"]]) {
      const result = runCli(args, { env });
      expect(result.status, `${args[0]}: ${result.stdout}`).toBe(1);
      const line = oneErrorLine(result.stderr);
      expect(line).toContain(`the store at ${store} is damaged`);
      expect(line).toContain("cairn doctor --repair");
    }
    expect(readFileSync(store).equals(before)).toBe(true);
  });

  it("cairn doctor explains the damage and exits 1 without touching the file", () => {
    const before = readFileSync(store);
    const result = runCli(["doctor"], { env });
    expect(result.status).toBe(1);
    expect(oneErrorLine(result.stderr)).toContain("is damaged");
    expect(result.stdout).toContain(`${store} is DAMAGED`);
    expect(result.stdout).toContain("cairn doctor --repair");
    expect(readFileSync(store).equals(before)).toBe(true);
  });

  it("cairn doctor --repair keeps the damaged file aside, saves every readable row and the store works again", () => {
    const before = readFileSync(store);
    const repair = runCli(["doctor", "--repair", "--json"], { env });
    expect(repair.status, repair.stderr).toBe(0);
    const { repair: report } = JSON.parse(repair.stdout) as {
      repair: {
        damagedPath: string;
        saved: number;
        lost: number | null;
        rescan: boolean;
        tables: Array<{ table: string; saved: number }>;
      };
    };
    expect(report.damagedPath).toMatch(/cairn\.db\.damaged-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/);
    expect(readFileSync(report.damagedPath).equals(before)).toBe(true);
    // The damaged file is kept with its WAL (its shared memory is rebuilt from them); no partial copy is left.
    const aside = readdirSync(home).filter((name) => name.includes(".damaged") || name.includes(".repairing"));
    expect(
      aside.map((name) => name.replace(/damaged-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z/, "damaged-T")).sort(),
    ).toEqual(aside.length === 1 ? ["cairn.db.damaged-T"] : ["cairn.db.damaged-T", "cairn.db.damaged-T-wal"]);
    const saved = (table: string) => report.tables.find((entry) => entry.table === table)?.saved ?? 0;
    expect(saved("sessions")).toBeGreaterThan(0);
    expect(saved("items")).toBeGreaterThan(100);
    expect(saved("items")).toBeLessThan(480);
    expect(saved("memories")).toBe(1);
    expect(report.rescan).toBe(true);

    const db = new Database(store, { readonly: true });
    expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
    expect((db.prepare("SELECT count(*) AS n FROM source_files").get() as { n: number }).n).toBe(0);
    db.close();
    const recall = runCli(["recall", "staging cluster", "--scope", "global"], { env });
    expect(recall.status, recall.stderr).toBe(0);
    expect(recall.stdout).toContain("Deploys go through the staging cluster first.");
    const remember = runCli(["remember", "After the repair new memories are stored again."], { env });
    expect(remember.status, remember.stderr).toBe(0);
    expect(existsSync(`${store}.damaged`)).toBe(false);
  });
});

describe("a store whose damage lies inside a batch of rows, past readable ones", () => {
  let root: string;
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("is repaired in bounded time, saving the readable memories (it once looped forever)", async () => {
    root = mkdtempSync(join(tmpdir(), "cairn-damaged-batch-"));
    const home = join(root, "home");
    const store = join(home, "cairn.db");
    const env = { CAIRN_HOME: home, HOME: root };
    const cairn = new Cairn({ home, env });
    try {
      await cairn.remember(
        Array.from({ length: 600 }, (_, i) => ({
          content: `fact ${i} about the build with pnpm and vitest ${i}`,
          scope: "global",
        })),
      );
    } finally {
      cairn.close();
    }
    const db = new Database(store);
    db.pragma("wal_checkpoint(TRUNCATE)");
    db.close();
    // Three pages of garbage in the middle, as a disk fault leaves them.
    const bytes = readFileSync(store);
    const middle = Math.floor(bytes.length / 4096 / 2);
    for (let offset = middle * 4096; offset < (middle + 3) * 4096; offset++) bytes[offset] = (offset * 131) % 251;
    writeFileSync(store, bytes);

    const repair = runCli(["doctor", "--repair", "--json"], { env });
    expect(repair.status, repair.stderr).toBe(0);
    const { repair: report } = JSON.parse(repair.stdout) as {
      repair: { tables: Array<{ table: string; saved: number }> };
    };
    const memories = report.tables.find((entry) => entry.table === "memories")?.saved ?? 0;
    expect(memories).toBeGreaterThan(0);
    expect(memories).toBeLessThanOrEqual(600);
  });
});
