import { afterEach, expect, it } from "vitest";
import { Cairn } from "../../src/cairn.js";
import { runCli } from "../helpers/runCli.js";
import { type TempHome, tempHome } from "../server/tempHome.js";

let temp: TempHome | undefined;
afterEach(() => temp?.cleanup());

it("status shows each worker's stats after a run, in text and JSON; doctor shows the health score", {
  timeout: 120_000,
}, async () => {
  temp = tempHome();
  const before = runCli(["status"], { env: temp.env });
  expect(before.stdout).toMatch(/^maintenance worker never ran in this store$/m);
  const cairn = new Cairn({ home: temp.home, env: temp.env });
  await cairn.remember({ content: "the deploy window is Tuesday", cwd: temp.project });
  cairn.close();
  const run = runCli(["run"], { env: temp.env });
  expect(run.status).toBe(0);
  const text = runCli(["status"], { env: temp.env }).stdout;
  for (const name of ["retention", "maintenance", "checkpoints", "continuity", "documents"]) {
    expect(text).toMatch(new RegExp(`^${name} worker +last cycle \\d{4}-`, "m"));
  }
  const json = JSON.parse(runCli(["status", "--json"], { env: temp.env }).stdout);
  expect(Object.keys(json.workers).sort()).toEqual([
    "checkpoints",
    "continuity",
    "documents",
    "maintenance",
    "retention",
  ]);
  expect(json.workers.maintenance).toEqual({
    running: false,
    processed: 0,
    failed: 0,
    skippedCycles: 0,
    lastCycleAt: expect.any(Number),
    queueDepth: 0,
    lastError: null,
    lastSkip: null,
  });
  const doctor = runCli(["doctor"], { env: temp.env }).stdout;
  expect(doctor).toMatch(/^health {8}1\.00 \(queue 0 dead of \d+, 0 stale leases; index 1 rows for 1 memories/m);
});
