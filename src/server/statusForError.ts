import type { ContentfulStatusCode } from "hono/utils/http-status";
import { CairnError } from "../util/errors.js";

/** CairnError codes that are the caller's fault, with the HTTP status each one means. */
const statusByCode: Record<string, ContentfulStatusCode> = {
  bad_input: 400,
  bad_memory_url: 400,
  memory_is_folder: 400,
  memory_not_found: 404,
};

/** The HTTP status for an error thrown by cairn: the caller's mistakes are 4xx, everything else 500. */
export function statusForError(error: unknown): ContentfulStatusCode {
  if (error instanceof CairnError) return statusByCode[error.code] ?? 500;
  return 500;
}
