import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { runCli } from "../helpers/runCli.js";
import { tempDir } from "../helpers/tempDir.js";

const demo = join(import.meta.dirname, "..", "..", "examples", "demo");

it("run says how many sessions wait beyond memories.maxRolloutsPerStartup and how to take them", () => {
  const env = { CAIRN_HOME: tempDir("cairn-waiting-") };
  // The example sessions are from 2026-10: wide windows make all three eligible on any date.
  writeFileSync(
    join(env.CAIRN_HOME, "config.yaml"),
    "memories:\n  maxRolloutsPerStartup: 1\n  maxRolloutAgeDays: 3650\n  minRolloutIdleHours: 0\n",
  );
  const sources = ["codex", "claude-code", "pi"].flatMap((agent) => ["--source", `${agent}=${join(demo, agent)}`]);
  expect(runCli(["scan", ...sources], { env }).status).toBe(0);
  const text = runCli(["run"], { env });
  expect(text.status, text.stderr).toBe(0);
  expect(text.stdout).toContain(
    "2 more session(s) waiting: run 'cairn run' again, or raise memories.maxRolloutsPerStartup to take more per run",
  );
  const json = runCli(["run", "--json"], { env });
  expect(JSON.parse(json.stdout).extract).toMatchObject({ waiting: 1, jobs: [expect.anything()] });
});
