import { z } from "zod";
import { request } from "./fields.js";
import { issueMessage } from "./issueMessage.js";

/** The collected sessions, newest first: optionally one agent's (an unknown name lists none), at most `limit`. */
export const sessionsRequest = request({
  agent: z.string({ error: issueMessage }).min(1).optional(),
  limit: z.int({ error: issueMessage }).min(1).max(100_000).optional(),
});
