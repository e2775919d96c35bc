import type { ContentfulStatusCode } from "hono/utils/http-status";
import { CairnError } from "../util/errors.js";

/** The HTTP status for an error thrown by cairn: a CairnError carries its own; anything else is a 500. */
export function statusForError(error: unknown): ContentfulStatusCode {
  return CairnError.isInstance(error) ? error.status : 500;
}
