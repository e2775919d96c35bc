/**
 * Errors that reach the user carry a one-line message that says what to do; code can branch on `code`
 * instead of parsing message text.
 */
export class CairnError extends Error {
  readonly code: string;
  readonly exitCode: number;

  constructor(code: string, message: string, options: { cause?: unknown; exitCode?: number } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "CairnError";
    this.code = code;
    this.exitCode = options.exitCode ?? 1;
  }
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
