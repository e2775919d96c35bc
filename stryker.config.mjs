// Mutation testing (`npm run test:mutation`, and CI in .ci/run): StrykerJS changes one thing at a time in
// the modules a user's data and safety rest on, and each change must turn a test red. Tests:
// vitest.mutation.config.ts. The redactor is a run of its own (stryker.redact.config.mjs). Scores per file
// and what survives: docs/experiments/mutation.md. Line ranges name functions: move them with the code.
/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
  testRunner: "vitest",
  vitest: { configFile: "vitest.mutation.config.ts" },
  coverageAnalysis: "perTest",
  mutate: [
    // The one job queue: enqueue and dedupe, claim and leases, heartbeat, backoff, dead jobs.
    "src/store/queue/jobQueue.ts",
    // Seed 001's compare-and-swap: the session marks (invalidate, findInvalidated, markProcessed,
    // invalidateIdle), and phase 1's side of it, from reading the mark to swapping it with the output.
    "src/store/repositories/sessionsRepository.ts:136-172",
    "src/pipeline/phase1/runPhase1.ts:259-331",
    // The consolidation agents' confinement: the argv and settings they run with, and the hook's rules.
    "src/pipeline/phase2/consolidators/agentConsolidator.ts:18-104",
    "src/pipeline/phase2/consolidators/confineToolCall.ts",
  ],
  ignorePatterns: ["dist", "docs", "bench/.data", "coverage", "reports"],
  concurrency: 2,
  timeoutMS: 10_000,
  reporters: ["clear-text", "progress", "json"],
  jsonReporter: { fileName: "reports/mutation/mutation.json" },
  // The run fails below `break`, set just under the score measured in docs/experiments/mutation.md.
  thresholds: { high: 90, low: 70, break: 88 },
  tempDirName: ".stryker-tmp",
  cleanTempDir: "always",
};
