import { z } from "zod";
import { cwd, flag, request, scope, text } from "./fields.js";
import { issueMessage, overLimit } from "./issueMessage.js";
import { requestLimits } from "./limits.js";

/**
 * A recall request. `k` is capped by the config's `recall.maxK`, so the schema is built per config:
 * a larger k is an error naming that key, never quietly fewer results.
 */
export function recallRequest(maxK: number) {
  let schema = built.get(maxK);
  if (!schema) {
    schema = buildRecallRequest(maxK);
    built.set(maxK, schema);
  }
  return schema;
}

// Built once per ceiling: the library checks every recall, and a process has one config.
const built = new Map<number, ReturnType<typeof buildRecallRequest>>();

function buildRecallRequest(maxK: number) {
  return request({
    query: text(requestLimits.queryChars, "the limit for a query"),
    k: z
      .int({ error: issueMessage })
      .min(1)
      .max(maxK, { error: overLimit("recall.maxK") })
      .optional(),
    scope: scope.optional(),
    cwd: cwd.optional(),
    expand: flag.optional(),
    includeSuperseded: flag.optional(),
  });
}

export type RecallRequestInput = z.input<ReturnType<typeof recallRequest>>;
