import { z } from "zod";
import { cwd, request, scope, text } from "./fields.js";
import { issueMessage, overLimit } from "./issueMessage.js";
import { requestLimits } from "./limits.js";
import { memoryTypes } from "./memoryTypes.js";

/** The fields of one memory a caller gives, on every door. */
export const rememberFields = {
  content: text(requestLimits.contentChars, "the limit for one memory"),
  scope: scope.optional(),
  ref: z
    .string({ error: issueMessage })
    .max(requestLimits.refChars, { error: overLimit("the limit for a ref") })
    .optional(),
  type: z.enum(memoryTypes, { error: issueMessage }).optional(),
};

/** One memory from a caller: a line of `cairn remember --file`, an item of an HTTP request. */
export const rememberItem = request(rememberFields);

/**
 * One memory given to the library's `Cairn.remember`: the caller's fields, checked, plus the fields only
 * code sets (who, why, provenance, occurredAt...), passed through as they are.
 */
export const rememberEntry = z.looseObject({ ...rememberFields, cwd: cwd.optional() }, { error: issueMessage });

/** An HTTP remember request: one memory (`content`) or a batch (`items`) sharing scope, ref, type and cwd. */
export const rememberRequest = request({
  content: rememberFields.content.optional(),
  items: z
    .array(rememberItem, { error: issueMessage })
    .min(1)
    .max(requestLimits.rememberItems, { error: overLimit("the limit for one request") })
    .optional(),
  scope: rememberFields.scope,
  ref: rememberFields.ref,
  type: rememberFields.type,
  cwd: cwd.optional(),
}).superRefine((body, ctx) => {
  if ((body.content === undefined) === (body.items === undefined)) {
    ctx.addIssue({
      code: "custom",
      path: ["content"],
      message: "content or items is required (one of them, not both)",
    });
  }
});
