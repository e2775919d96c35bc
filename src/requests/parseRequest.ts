import type { z } from "zod";
import { redactText } from "../redact/redact.js";
import { CairnError } from "../util/errors.js";

/**
 * Validates a request against its operation's schema. The first problem becomes a `bad_input`
 * CairnError whose one-line message names the field and the limit (see issueMessage), which every
 * door shows as is: the CLI's error line, HTTP's 400 body, MCP's tool error, the library's throw. It
 * can quote what was given (an unknown field's name, a date given as text), so it is redacted here.
 */
export function parseRequest<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success)
    throw new CairnError("bad_input", redactText(result.error.issues[0]?.message ?? "request is not valid"));
  return result.data;
}
