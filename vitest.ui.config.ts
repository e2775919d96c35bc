import { defineConfig } from "vitest/config";

// The memory browser suite (test/ui): the page of `cairn ui` in the system Chromium, driven by
// playwright-core. Kept out of `npm test`; .ci/run runs it after the main suite, and it skips with a
// message when no Chromium is installed.
export default defineConfig({
  test: {
    include: ["test/ui/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    globalSetup: ["test/setup/globalSetup.ts"],
    setupFiles: ["test/setup/perFile.ts"],
  },
});
