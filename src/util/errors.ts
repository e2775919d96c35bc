/**
 * Every CairnError code, with the HTTP status it means: the caller's mistakes are 4xx, cairn's own
 * failures 500. A closed table, so an unknown code is a compile error rather than a silent 500. Codes
 * that only the CLI raises carry the status they would mean over HTTP.
 */
export const cairnErrorStatus = {
  // The caller's request.
  bad_input: 400,
  bad_flag: 400,
  bad_memory_url: 400,
  memory_is_folder: 400,
  memory_not_found: 404,
  review_not_found: 404,
  session_not_found: 404,
  memory_not_changed: 400,
  unknown_agent: 400,
  needs_confirmation: 400,
  cancelled: 400,
  // The memory workspace's files.
  memory_too_large: 500,
  memory_not_regular: 500,
  // Configuration and setup.
  config_invalid: 500,
  config_unknown_key: 500,
  connector_config_invalid: 500,
  connector_conflict: 500,
  connector_config_readonly: 500,
  connector_config_busy: 500,
  no_provider: 500,
  weak_token: 500,
  unsafe_bind: 500,
  listen_failed: 500,
  ui_unavailable: 500,
  prompt_missing: 500,
  prompt_variable: 500,
  // The store.
  store_unreadable: 500,
  store_too_new: 500,
  store_damaged: 500,
  disk_full: 500,
  store_readonly: 500,
  store_io: 500,
  // The store's path names another file than the one this process opened (a repair swapped it).
  store_replaced: 500,
  // `cairn doctor --repair` while another process has the store open.
  store_in_use: 500,
  not_stored: 500,
  // A memory write while the configuration freezes them (pipeline.mutationsFrozen): the request is
  // fine, the store's state refuses it.
  mutations_frozen: 409,
  // A memory written from a folder (or into a scope) that memories.exclude keeps out of memory.
  project_excluded: 409,
} as const satisfies Record<string, 400 | 404 | 409 | 500>;

export type CairnErrorCode = keyof typeof cairnErrorStatus;
export type CairnErrorStatus = (typeof cairnErrorStatus)[CairnErrorCode];

const marker = Symbol.for("cairn.error");

/**
 * Errors that reach the user carry a one-line message that says what to do; code can branch on `code`
 * (and a server on `status`) instead of parsing message text.
 */
export class CairnError extends Error {
  readonly code: CairnErrorCode;
  readonly status: CairnErrorStatus;
  readonly exitCode: number;
  readonly [marker] = true;

  constructor(code: CairnErrorCode, message: string, options: { cause?: unknown; exitCode?: number } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "CairnError";
    this.code = code;
    this.status = cairnErrorStatus[code];
    this.exitCode = options.exitCode ?? 1;
  }

  /** True for a CairnError from any copy of this module (a bundle and the library can hold one each). */
  static isInstance(error: unknown): error is CairnError {
    return typeof error === "object" && error !== null && marker in error;
  }
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
