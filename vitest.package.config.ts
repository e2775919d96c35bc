import { defineConfig } from "vitest/config";

// The package smoke suite (test/package): cairn as a user installs it, from the packed tarball. Run after
// `npm run build`, under each supported Node.js line (.ci/run).
export default defineConfig({
  test: {
    include: ["test/package/**/*.test.ts"],
    testTimeout: 120_000,
    hookTimeout: 300_000,
    pool: "forks",
    // The tarball is installed before the isolated environment replaces HOME (and with it npm's cache).
    globalSetup: ["test/package/installPackedCairn.ts", "test/setup/globalSetup.ts"],
    setupFiles: ["test/setup/perFile.ts"],
    // One installed prefix: the native-module file breaks and repairs it, so files run one at a time.
    fileParallelism: false,
  },
});
