import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { z } from "zod";

/**
 * Parses and validates a JSON request body. Requires `Content-Type: application/json`: a browser page
 * cannot send that cross-origin without a CORS preflight, which this server never approves, so a
 * malicious page cannot make a local cairn remember things. An empty body counts as `{}`.
 */
export async function readJsonBody<T>(c: Context, schema: z.ZodType<T>): Promise<T> {
  if (!/^application\/json\b/i.test(c.req.header("content-type") ?? "")) {
    throw new HTTPException(415, { message: "Content-Type must be application/json" });
  }
  const text = await c.req.text();
  let value: unknown = {};
  if (text.trim() !== "") {
    try {
      value = JSON.parse(text);
    } catch {
      throw new HTTPException(400, { message: "request body is not valid JSON" });
    }
  }
  const result = schema.safeParse(value);
  if (!result.success) throw new HTTPException(400, { message: describeIssue(result.error.issues[0]) });
  return result.data;
}

/** One issue as a sentence that starts with the field it is about. */
export function describeIssue(issue: z.core.$ZodIssue | undefined): string {
  if (!issue) return "invalid request body";
  const field = issue.path.map(String).join(".");
  if (issue.code === "unrecognized_keys") {
    const prefix = field ? `${field}.` : "";
    return `unknown field ${issue.keys.map((key) => prefix + key).join(", ")}`;
  }
  if (!field) return `request body: ${issue.message}`;
  if (issue.code === "invalid_type" && /received undefined/.test(issue.message)) return `${field} is required`;
  if (issue.code === "custom") return `${field} ${issue.message}`;
  return `${field}: ${issue.message}`;
}
