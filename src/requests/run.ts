import { flag, request } from "./fields.js";

/** Starts a pipeline cycle; `retryDead` first queues again the jobs that failed permanently (`cairn run --retry-dead`). */
export const runRequest = request({ retryDead: flag.optional() });
