import { ProviderError } from "./providerError.js";
import { type HttpAnswer, proxyFetch } from "./proxyFetch.js";
import { parseRetryAfter } from "./retryAfter.js";
import { bodyStart, scrubSecrets } from "./scrub.js";

export interface PostJsonOptions {
  /** Names the provider in every error message. */
  provider: string;
  url: string;
  headers?: Record<string, string>;
  body: unknown;
  timeoutMs: number;
  /** The caller's cancellation: when it fires, its reason is thrown as is (it is not a provider failure). */
  signal?: AbortSignal;
  /**
   * Strings (API keys) removed from anything this helper puts into an error. The credential values of
   * `headers` (`authorization: Bearer <key>`, `api-key: <key>`) are always added.
   */
  secrets?: ReadonlyArray<string | undefined>;
}

/** Kept on the error for diagnosis; bounded so a huge HTML error page does not land in the job table. */
const RESPONSE_BODY_LIMIT = 10_000;

/** Statuses worth retrying (as in the Vercel AI SDK's APICallError, plus 425 Too Early). */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 425 || status === 429 || status >= 500;
}

/**
 * The one HTTP exchange of every LLM and embedding provider (as the Vercel AI SDK's postJsonToApi):
 * POSTs a JSON body and returns the parsed JSON answer. Every failure becomes a ProviderError whose
 * kind and isRetryable retry logic can branch on: timeout, network (including a reset connection),
 * http (with statusCode and retryAfterMs) and malformed (a 2xx answer that is not JSON).
 * HTTP(S)_PROXY and NO_PROXY are honoured (proxyFetch).
 * Expects: the timeout covers the whole exchange, reading the body included.
 */
export async function postJson(request: PostJsonOptions): Promise<unknown> {
  const secrets = [...(request.secrets ?? []), ...headerSecrets(request.headers), ...querySecrets(request.url)];
  const options = { ...request, secrets };
  options.signal?.throwIfAborted();
  const problem = urlProblem(options.url);
  if (problem) {
    throw new ProviderError({
      provider: options.provider,
      kind: "config",
      message: `${options.provider}: ${problem}`,
      isRetryable: false,
    });
  }
  const deadline = linkDeadline(options.timeoutMs, options.signal);
  const where = `POST ${describeUrl(options.url)}`;
  try {
    let response: HttpAnswer;
    let text: string;
    try {
      response = await proxyFetch(options.url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json", ...options.headers },
        body: JSON.stringify(options.body),
        signal: deadline.signal,
      });
      text = await response.text();
    } catch (error) {
      throw transportError(error, { ...options, where, timedOut: deadline.timedOut() });
    }
    if (!response.ok) throw httpError(response, text, options);
    return parseBody(text, options);
  } finally {
    deadline.clear();
  }
}

/**
 * GETs a URL for a reachability check. Returns the parsed JSON (null when the body is not JSON) on a
 * 2xx answer, undefined on anything else. Never throws.
 */
export async function probeJson(options: {
  url: string;
  headers?: Record<string, string>;
  timeoutMs: number;
}): Promise<{ json: unknown } | undefined> {
  try {
    const response = await proxyFetch(options.url, {
      headers: { accept: "application/json", ...options.headers },
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    const text = await response.text();
    if (!response.ok) return undefined;
    return { json: safeParse(text) ?? null };
  } catch {
    return undefined;
  }
}

function transportError(error: unknown, context: PostJsonOptions & { where: string; timedOut: boolean }): unknown {
  if (context.signal?.aborted) return context.signal.reason;
  if (context.timedOut) {
    return new ProviderError({
      provider: context.provider,
      kind: "timeout",
      message: `${context.provider}: timed out after ${context.timeoutMs} ms (${context.where})`,
      isRetryable: true,
      cause: error,
    });
  }
  const detail = scrubSecrets(describeCause(error), context.secrets ?? []);
  return new ProviderError({
    provider: context.provider,
    kind: "network",
    message: `${context.provider}: network error: ${detail} (${context.where})`,
    isRetryable: true,
    cause: error,
  });
}

function httpError(response: HttpAnswer, text: string, options: PostJsonOptions): ProviderError {
  const body = scrubSecrets(text, options.secrets ?? []);
  return new ProviderError({
    provider: options.provider,
    kind: "http",
    message: `${options.provider}: HTTP ${response.status}: ${bodyStart(body)}`,
    isRetryable: isRetryableStatus(response.status),
    statusCode: response.status,
    retryAfterMs: parseRetryAfter(response.headers),
    responseBody: body.slice(0, RESPONSE_BODY_LIMIT),
  });
}

function parseBody(text: string, options: PostJsonOptions): unknown {
  const parsed = safeParse(text);
  if (parsed !== undefined) return parsed;
  const body = scrubSecrets(text, options.secrets ?? []);
  // A 2xx answer that is not JSON is usually a proxy or a server cut off mid-answer: worth another try.
  throw new ProviderError({
    provider: options.provider,
    kind: "malformed",
    message: `${options.provider}: malformed JSON response: ${bodyStart(body) || "(empty body)"}`,
    isRetryable: true,
    responseBody: body.slice(0, RESPONSE_BODY_LIMIT),
  });
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** One signal for the whole exchange: the caller's cancellation or our own deadline, whichever comes first. */
function linkDeadline(timeoutMs: number, parent: AbortSignal | undefined) {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error(`timed out after ${timeoutMs} ms`));
  }, timeoutMs);
  const onAbort = () => controller.abort(parent?.reason);
  parent?.addEventListener("abort", onAbort, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    clear: () => {
      clearTimeout(timer);
      parent?.removeEventListener("abort", onAbort);
    },
  };
}

/** fetch reports "fetch failed" and hides the useful part (ECONNRESET, ECONNREFUSED) in `cause`. */
function describeCause(error: unknown): string {
  let current: unknown = error;
  let description = error instanceof Error ? error.message : String(error);
  while (current instanceof Error && current.cause !== undefined) {
    current = current.cause;
    if (current instanceof Error) {
      const code = (current as { code?: unknown }).code;
      description = typeof code === "string" ? `${code}: ${current.message}` : current.message;
    }
  }
  return description;
}

/** The values of credential headers (`authorization: Bearer <key>`, `x-api-key`, ...), with and without the scheme. */
function headerSecrets(headers: Record<string, string> | undefined): string[] {
  return Object.entries(headers ?? {})
    .filter(([name]) => /auth|key|token|secret/i.test(name))
    .flatMap(([, value]) => [value, value.replace(/^(Bearer|Basic)\s+/i, "")]);
}

/** Query values (`?key=...` as some gateways take it): any of them may be a credential. */
function querySecrets(url: string): string[] {
  return URL.canParse(url) ? [...new URL(url).searchParams.values()] : [];
}

/** Why fetch would refuse this URL before sending anything; retrying cannot help. */
function urlProblem(url: string): string | undefined {
  if (!URL.canParse(url)) return "base URL is not a valid URL";
  const parsed = new URL(url);
  if (parsed.username || parsed.password) {
    return "base URL must not carry credentials (user:password@); set the provider's API key instead";
  }
  return undefined;
}

/** Origin and path only: user-info and query strings can carry credentials. */
function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return "(invalid URL)";
  }
}
