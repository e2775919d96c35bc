export type ProviderErrorKind = "http" | "timeout" | "network" | "refusal" | "exit" | "malformed" | "config";

/**
 * A failed provider call, LLM or embedding, with fields retry logic branches on. The message names the
 * provider and the HTTP status or exit code with the start of the response body.
 */
export class ProviderError extends Error {
  readonly provider: string;
  readonly kind: ProviderErrorKind;
  readonly statusCode: number | undefined;
  readonly exitCode: number | undefined;
  readonly isRetryable: boolean;
  readonly retryAfterMs: number | undefined;
  readonly responseBody: string | undefined;

  constructor(options: {
    provider: string;
    kind: ProviderErrorKind;
    message: string;
    isRetryable: boolean;
    statusCode?: number;
    exitCode?: number;
    retryAfterMs?: number;
    responseBody?: string;
    cause?: unknown;
  }) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ProviderError";
    this.provider = options.provider;
    this.kind = options.kind;
    this.statusCode = options.statusCode;
    this.exitCode = options.exitCode;
    this.isRetryable = options.isRetryable;
    this.retryAfterMs = options.retryAfterMs;
    this.responseBody = options.responseBody;
  }
}
