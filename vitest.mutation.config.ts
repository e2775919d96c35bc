import { defineConfig } from "vitest/config";

// The suites that guard the modules under mutation testing (stryker.config.mjs): the job queue, the
// compare-and-swap that keeps a session pending, and the consolidation agents' confinement (the
// redactor's own suites are in vitest.mutation.redact.config.ts). Only these run, and of them only the
// tests that cover a mutant, so a mutant costs a second or two rather than a run of the whole suite.
export const mutationSuites = [
  "test/store/queue/jobQueue.test.ts",
  "test/store/queue/jobQueueRepairs.test.ts",
  "test/store/queue/leaseHeartbeat.test.ts",
  "test/store/queue/leaseRecovery.test.ts",
  "test/collection/sessionsRepository.test.ts",
  "test/pipeline/phase1ItemsDuringExtraction.test.ts",
  "test/pipeline/phase1Claim.test.ts",
  "test/pipeline/phase1Extract.test.ts",
  "test/pipeline/agentConfinement.test.ts",
];

export default defineConfig({
  test: {
    include: mutationSuites,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    // Modules stay loaded between runs (Stryker switches mutants at run time, not by reloading them):
    // the first run takes 30 s instead of several minutes.
    isolate: false,
    // The redactor's backtracking tests skip themselves under instrumentation (test/redact/redact.test.ts).
    env: { CAIRN_MUTATION_RUN: "1" },
    globalSetup: ["test/setup/globalSetup.ts"],
    setupFiles: ["test/setup/perFile.ts"],
  },
});
