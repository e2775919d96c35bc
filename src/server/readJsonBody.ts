import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { z } from "zod";
import { parseRequest } from "../requests/parseRequest.js";

/**
 * Parses and validates a JSON request body. Requires `Content-Type: application/json`: a browser page
 * cannot send that cross-origin without a CORS preflight, which this server never approves, so a
 * malicious page cannot make a local cairn remember things. An empty body counts as `{}`. A body that
 * breaks its operation's request schema throws the same `bad_input` error as the CLI and MCP (a 400).
 */
export async function readJsonBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
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
  return parseRequest(schema, value);
}
