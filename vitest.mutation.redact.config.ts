import { defineConfig } from "vitest/config";
import mutation from "./vitest.mutation.config.js";

// The redactor's own suites, for its mutants (stryker.redact.config.mjs). Every store write passes the
// redactor, so under vitest.mutation.config.ts each of its mutants would also run the queue's, phase
// 1's and the agents' tests that happen to store text; what must catch a redactor's mistake is these.
export default defineConfig({ ...mutation, test: { ...mutation.test, include: ["test/redact/*.test.ts"] } });
