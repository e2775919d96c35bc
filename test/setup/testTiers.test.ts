import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { finished, spawnSyncTimed } from "../helpers/timedSpawn.js";
import { processSuites } from "./suiteTiers.js";

describe("the process tier of npm test", () => {
  it("holds the suites that start processes, directly or through a helper, and no other", () => {
    const suites = processSuites();
    // node:child_process directly; runCli through its helper; a fake codex written by the suite.
    expect(suites).toEqual(
      expect.arrayContaining([
        "test/cli/bin.test.ts",
        "test/cli/cli.test.ts",
        "test/pipeline/agentConfinement.test.ts",
        "test/setup/testTiers.test.ts",
      ]),
    );
    for (const inProcess of ["test/redact/entropy.test.ts", "test/store/queue/jobQueue.test.ts"]) {
      expect(suites).not.toContain(inProcess);
    }
    expect(suites.some((suite) => /^test\/(chaos|package|ui)\//.test(suite))).toBe(false);
  });

  it("kills a spawn past its timeout and fails naming the command", async () => {
    const hang = ["-e", "console.log('started'); setTimeout(() => {}, 60_000)"];
    expect(() => spawnSyncTimed(process.execPath, hang, { timeoutMs: 1_000 })).toThrow(
      /^node -e "console\.log\('started'\); setTimeout\(\(\) => \{\}, 60_000\)" did not finish within 1 s and was killed; its last output:\nstarted$/,
    );
    const child = spawn(process.execPath, hang, { stdio: ["ignore", "pipe", "pipe"] });
    await expect(finished(child, 1_000)).rejects.toThrow(/^node -e .* did not finish within 1 s and was killed/);
    expect(child.killed).toBe(true);
    expect(spawnSyncTimed(process.execPath, ["-e", "process.stdout.write('ok')"]).stdout).toBe("ok");
  });
});
