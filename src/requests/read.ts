import { z } from "zod";
import { cwd, request } from "./fields.js";
import { issueMessage } from "./issueMessage.js";

/**
 * Reading a memory file by URL; `cwd` picks the project of `memory://root`; `offset` starts at that
 * character, so a file longer than one tool result can be read in parts.
 */
export const readRequest = request({
  url: z.string({ error: issueMessage }).min(1),
  cwd: cwd.optional(),
  offset: z.int({ error: issueMessage }).min(0).optional(),
});
