import { z } from "zod";
import { cwd, request, scope } from "./fields.js";
import { issueMessage } from "./issueMessage.js";
import { memoryId } from "./memoryId.js";

/** The open review flags about memories in `scope` (project, the default: the project of cwd plus global). */
export const reviewListRequest = request({ scope: scope.optional(), cwd: cwd.optional() });

/** What a person decides about a flag: keep both, let the newer side replace the flagged memory, or forget it. */
export const reviewActions = ["keep", "supersede", "forget"] as const;
export type ReviewAction = (typeof reviewActions)[number];

export const reviewResolveRequest = request({
  flag: memoryId,
  action: z.enum(reviewActions, { error: issueMessage }),
});
