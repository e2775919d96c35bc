// The part of the mutation testing CI runs (.ci/run): the compare-and-swap and the consolidation
// agents' confinement, a few minutes on two cores; the queue and the redactor run with
// `npm run test:mutation` (stryker.config.mjs). The run fails below `thresholds.break`, set just
// under the score measured in docs/experiments/mutation.md.
import base from "./stryker.config.mjs";

/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
  ...base,
  mutate: base.mutate.filter((pattern) => !pattern.startsWith("src/store/queue/") && !pattern.startsWith("src/redact/")),
  thresholds: { ...base.thresholds, break: 86 },
};
