import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { runCli } from "../helpers/runCli.js";
import { tempDir } from "../helpers/tempDir.js";

const demo = join(import.meta.dirname, "..", "..", "examples", "demo");

it("status counts dead jobs and names the command; run --retry-dead runs them again and says how many", {
  timeout: 120_000,
}, () => {
  const env = { CAIRN_HOME: tempDir("cairn-retry-dead-") };
  // One attempt each, and a provider nothing listens on (a closed loopback port): every session dies.
  writeFileSync(
    join(env.CAIRN_HOME, "config.yaml"),
    "memories:\n  maxRolloutAgeDays: 3650\n  minRolloutIdleHours: 0\nqueue:\n  maxAttempts: 1\n",
  );
  const sources = ["codex", "claude-code", "pi"].flatMap((agent) => ["--source", `${agent}=${join(demo, agent)}`]);
  expect(runCli(["scan", ...sources], { env }).status).toBe(0);
  const broken = {
    ...env,
    CAIRN_LLM_PROVIDER: "openai",
    CAIRN_LLM_BASE_URL: "http://127.0.0.1:9/v1",
    CAIRN_LLM_MODEL: "fake-model",
    CAIRN_LLM_API_KEY: "sk-test-not-a-secret",
  };
  expect(runCli(["run"], { env: broken }).status).toBe(0);

  const status = runCli(["status"], { env });
  expect(status.stdout).toContain(
    "dead         3 jobs (phase1 3) failed permanently; 'cairn run --retry-dead' runs them again",
  );
  expect(JSON.parse(runCli(["status", "--json"], { env }).stdout).dead).toEqual({
    jobs: 3,
    byKind: { phase1: 3 },
    retry: "cairn run --retry-dead",
  });
  // A plain run leaves them dead (the provider is fixed now, but nothing says so).
  const plain = runCli(["run"], { env });
  expect(plain.stdout).toContain(
    "skipped: 3 failed permanently ('cairn status' says why; 'cairn run --retry-dead' retries them)",
  );

  const retried = runCli(["run", "--retry-dead", "--json"], { env });
  expect(retried.status, retried.stderr).toBe(0);
  const report = JSON.parse(retried.stdout);
  expect(report.retried).toEqual({ phase1: 3 });
  expect(report.extract.jobs.map((job: { outcome: string }) => job.outcome)).toEqual([
    "succeeded",
    "succeeded",
    "succeeded",
  ]);
  expect(JSON.parse(runCli(["status", "--json"], { env }).stdout).dead).toEqual({ jobs: 0, byKind: {}, retry: null });
  expect(runCli(["status"], { env }).stdout).not.toContain("dead         ");
  expect(runCli(["run", "--retry-dead"], { env }).stdout).toContain("retry-dead: no dead jobs to retry");
});
