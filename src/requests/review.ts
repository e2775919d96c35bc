import { z } from "zod";
import { cwd, request, scope } from "./fields.js";
import { issueMessage } from "./issueMessage.js";
import { memoryId } from "./memoryId.js";
import { reviewActions } from "./reviewActions.js";

/** The open review flags about memories in `scope` (project, the default: the project of cwd plus global). */
export const reviewListRequest = request({ scope: scope.optional(), cwd: cwd.optional() });

export const reviewResolveRequest = request({
  flag: memoryId,
  action: z.enum(reviewActions, { error: issueMessage }),
});
