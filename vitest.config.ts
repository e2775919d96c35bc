import { defineConfig } from "vitest/config";
import { processSuites } from "./test/setup/suiteTiers.js";

// `npm test` runs two tiers, one after the other: `--project in-process` (the suites that run in the
// test process), then `--project processes` (those that start the CLI, node, git or fake agent
// executables; test/setup/suiteTiers.ts sorts them). A spawn through test/helpers (runCli, timedSpawn)
// is killed after 60 s and fails naming its command, so those tests get room for that.
const spawning = processSuites();

export default defineConfig({
  test: {
    pool: "forks",
    // Every test runs with its own home and temp dir, and the run fails if one leaks files (test/setup).
    globalSetup: ["test/setup/globalSetup.ts"],
    setupFiles: ["test/setup/perFile.ts"],
    projects: [
      {
        extends: true,
        test: {
          name: "in-process",
          include: ["test/**/*.test.ts"],
          exclude: ["test/chaos/**", "test/package/**", "test/ui/**", ...spawning],
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: { name: "processes", include: spawning, testTimeout: 120_000, hookTimeout: 60_000 },
      },
    ],
  },
});
