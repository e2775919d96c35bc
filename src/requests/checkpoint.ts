import { z } from "zod";
import { cwd, request, text } from "./fields.js";
import { issueMessage } from "./issueMessage.js";

/**
 * A session checkpoint asked for by the user (`cairn checkpoint`, `explicit`) or by an agent (HTTP or the
 * library, `agent`): of the session named, else of the newest stored session of the project of `cwd`.
 */
export const checkpointRequest = request({
  session: text(1000, "the limit for a session id").optional(),
  cwd: cwd.optional(),
  trigger: z.enum(["explicit", "agent"], { error: issueMessage }).optional(),
});

export type CheckpointRequest = z.input<typeof checkpointRequest>;
