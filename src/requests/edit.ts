import { request } from "./fields.js";
import { changeReason, memoryId } from "./memoryId.js";
import { rememberFields } from "./remember.js";

/**
 * Replaces one memory: the new text (and/or type) is stored like any remember, in the old memory's scope,
 * and supersedes it, so the old text stays in the history.
 */
export const editRequest = request({
  id: memoryId,
  content: rememberFields.content.optional(),
  type: rememberFields.type,
  reason: changeReason,
}).superRefine((body, ctx) => {
  if (body.content === undefined && body.type === undefined) {
    ctx.addIssue({ code: "custom", path: ["content"], message: "content or type is required (what to change)" });
  }
});
