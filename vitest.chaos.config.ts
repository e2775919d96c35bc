import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/chaos/**/*.test.ts"],
    testTimeout: 300_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Every test runs with its own home and temp dir, and the run fails if one leaks files (test/setup).
    globalSetup: ["test/setup/globalSetup.ts"],
    setupFiles: ["test/setup/perFile.ts"],
    fileParallelism: false,
  },
});
