import { z } from "zod";
import { cwd, request } from "./fields.js";
import { issueMessage } from "./issueMessage.js";

/** Reading a memory file by URL; `cwd` picks the project of `memory://root`. */
export const readRequest = request({
  url: z.string({ error: issueMessage }).min(1),
  cwd: cwd.optional(),
});
