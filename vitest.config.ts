import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    exclude: ["test/chaos/**", "test/package/**", "test/ui/**"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    // Every test runs with its own home and temp dir, and the run fails if one leaks files (test/setup).
    globalSetup: ["test/setup/globalSetup.ts"],
    setupFiles: ["test/setup/perFile.ts"],
  },
});
