// Mutation testing of the redactor (src/redact/*.ts; its rules, data rather than code, are not mutated)
// against its own suites (vitest.mutation.redact.config.ts): every store write passes the redactor, so
// with the other suites loaded each of its mutants would also run tests that only happen to store text.
// CI runs it (.ci/run) and so does `npm run test:mutation`; it fails below `thresholds.break`, set just
// under the score measured in docs/experiments/mutation.md.
import base from "./stryker.config.mjs";

/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
  ...base,
  vitest: { configFile: "vitest.mutation.redact.config.ts" },
  mutate: ["src/redact/*.ts"],
  // Module-level constants (the gates' regular expressions, the markers) are "static" mutants: each one
  // reloads the modules and runs all 500 tests instead of the few that cover it, about a third of the
  // run's time for 7 % of its mutants. The gates' behaviour is checked through the functions using them.
  ignoreStatic: true,
  // The redactor's covering tests take a second or two: a mutant that loops for ever is given up on
  // sooner than the queue's (each of some 30 such mutants cost 10 s more, and a restart of the runner).
  timeoutMS: 5_000,
  jsonReporter: { fileName: "reports/mutation/redact.json" },
  thresholds: { ...base.thresholds, break: 86 },
};
