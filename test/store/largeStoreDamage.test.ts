import { copyFileSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { Cairn } from "../../src/cairn.js";
import { checkedMarkerPath } from "../../src/store/storeCheck.js";
import { damagedMarkerPath } from "../../src/store/storeFault.js";
import { oneErrorLine } from "../helpers/errorLine.js";
import { garbleTable, growStore, LARGE_STORE_BYTES } from "../helpers/largeStore.js";
import { runCli } from "../helpers/runCli.js";
import { saidSession } from "../helpers/saidSession.js";
import { tempDir } from "../helpers/tempDir.js";

const CONFIG = "memories:\n  minRolloutIdleHours: 0\n";

/** A store over 32 MB with three extracted sessions waiting for consolidation. */
async function seed(home: string): Promise<void> {
  mkdirSync(home, { recursive: true, mode: 0o700 });
  writeFileSync(join(home, "config.yaml"), CONFIG, { mode: 0o600 });
  let now = Date.parse("2026-10-01T10:00:00.000Z");
  const cairn = new Cairn({ home, env: { HOME: home }, clock: () => now, importLanes: false });
  const advance = (ms: number) => {
    now += ms;
    return now;
  };
  try {
    for (let s = 0; s < 3; s++)
      saidSession(cairn, { id: `s${s}`, cwd: "/srv/app", said: `Session ${s}: always lint with pnpm lint.` }, advance);
    const extracted = await cairn.extract();
    expect(extracted.jobs.map((job) => job.outcome)).toEqual(["succeeded", "succeeded", "succeeded"]);
  } finally {
    cairn.close();
  }
  growStore(join(home, "cairn.db"));
}

/** A copy of the seeded memory root; with `checked`, its record of a full check made just now. */
function copyHome(seeded: string, checked: boolean): { home: string; store: string; env: NodeJS.ProcessEnv } {
  const home = join(tempDir("cairn-large-copy-"), "home");
  mkdirSync(home, { mode: 0o700 });
  for (const name of ["cairn.db", "config.yaml", ...(checked ? ["cairn.db.checked"] : [])])
    copyFileSync(join(seeded, name), join(home, name));
  return { home, store: join(home, "cairn.db"), env: { CAIRN_HOME: home, HOME: home } };
}

describe("damage in a store over 32 MB", () => {
  let seeded: string;

  beforeAll(async () => {
    seeded = join(tempDir("cairn-large-"), "home");
    await seed(seeded);
    expect(statSync(join(seeded, "cairn.db")).size).toBeGreaterThan(LARGE_STORE_BYTES);
    // One command reads it whole (never checked before) and records when.
    const status = runCli(["status"], { env: { CAIRN_HOME: seeded, HOME: seeded } });
    expect(status.status, status.stderr).toBe(0);
    expect(readFileSync(checkedMarkerPath(join(seeded, "cairn.db")), "utf8").split("\n")[1]).toMatch(/^\d+$/);
  }, 120_000);

  it("is found by the first command once the last full check is old, and nothing is written", () => {
    const { store, env } = copyHome(seeded, false);
    garbleTable(store, "items", 20);
    const before = readFileSync(store);
    const remember = runCli(["remember", "a fact that must not go into a damaged store"], { env });
    expect(remember.status, remember.stdout).toBe(1);
    expect(oneErrorLine(remember.stderr)).toContain(`the store at ${store} is damaged`);
    expect(existsSync(damagedMarkerPath(store))).toBe(true);
    expect(readFileSync(store).equals(before)).toBe(true);
  });

  it("met inside consolidation, marks the store damaged and fails the run; later commands refuse it", () => {
    // Checked a moment ago: the open does not read it whole again, so phase 2 is the first to meet the damage.
    const { store, env } = copyHome(seeded, true);
    // An index only consolidation reads: the damage is met inside the phase-2 job, nowhere before.
    garbleTable(store, "idx_stage1_project", 1);
    const run = runCli(["run"], { env });
    expect(run.status, run.stdout).toBe(1);
    expect(oneErrorLine(run.stderr)).toContain(`the store at ${store} is damaged`);
    expect(existsSync(damagedMarkerPath(store))).toBe(true);
    const remember = runCli(["remember", "a fact that must not go into a damaged store"], { env });
    expect(remember.status).toBe(1);
    expect(oneErrorLine(remember.stderr)).toContain("is damaged");
  });
});
