import { z } from "zod";
import { issueMessage, overLimit } from "./issueMessage.js";

// Field schemas shared by the operations' requests. Each carries issueMessage, so a bad value reads the
// same on every door, including the MCP SDK's own validation of tool arguments.

const error = issueMessage;

/** Non-empty text after trimming, at most `max` characters (the limit named by `limit`). */
export function text(max: number, limit: string) {
  return z
    .string({ error })
    .trim()
    .min(1)
    .max(max, { error: overLimit(limit) });
}

/** A directory whose project is meant. Must be absolute where the caller's own directory is unknown (HTTP). */
export const cwd = z.string({ error }).min(1);

/** `project`, `global`, `all` (recall only) or any label given to remember. */
export const scope = z.string({ error }).min(1);

export const flag = z.boolean({ error });

/** A strict request object: a misspelt field is an error naming it, not a silently ignored option. */
export function request<T extends z.core.$ZodLooseShape>(shape: T) {
  return z.strictObject(shape, { error });
}
