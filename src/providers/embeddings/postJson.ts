import { scrubSecrets } from "../llm/scrub.js";
import { ProviderError } from "../llm/types.js";

/** POSTs JSON and returns the parsed answer; failures become ProviderErrors retry logic can branch on. */
export async function postJson(options: {
  provider: string;
  url: string;
  body: unknown;
  headers?: Record<string, string>;
  timeoutMs: number;
}): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(options.url, {
      method: "POST",
      headers: { "content-type": "application/json", ...options.headers },
      body: JSON.stringify(options.body),
      signal: AbortSignal.timeout(options.timeoutMs),
    });
  } catch (error) {
    const timeout = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
    throw new ProviderError({
      provider: options.provider,
      kind: timeout ? "timeout" : "network",
      message: `${options.provider}: ${timeout ? `no answer within ${options.timeoutMs} ms` : "cannot reach"} ${options.url}`,
      isRetryable: true,
      cause: error,
    });
  }
  // Some servers echo the key they rejected; the message goes to the job table and logs.
  const text = scrubSecrets(await response.text(), headerSecrets(options.headers));
  if (!response.ok) {
    throw new ProviderError({
      provider: options.provider,
      kind: "http",
      statusCode: response.status,
      message: `${options.provider}: HTTP ${response.status}: ${text.slice(0, 200)}`,
      isRetryable: response.status === 429 || response.status >= 500,
      responseBody: text,
    });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new ProviderError({
      provider: options.provider,
      kind: "malformed",
      message: `${options.provider}: the answer is not JSON: ${text.slice(0, 200)}`,
      isRetryable: false,
      responseBody: text,
      cause: error,
    });
  }
}

/** Checks a vector list's shape and L2-normalizes each vector (the contract promises unit vectors). */
export function toUnitVectors(provider: string, vectors: unknown, expected: number): Float32Array[] {
  if (!Array.isArray(vectors) || vectors.length !== expected || !vectors.every((v) => Array.isArray(v))) {
    throw new ProviderError({
      provider,
      kind: "malformed",
      message: `${provider}: expected ${expected} vectors`,
      isRetryable: false,
    });
  }
  return (vectors as number[][]).map((v) => {
    const out = Float32Array.from(v);
    const norm = Math.hypot(...out);
    if (norm > 0) for (let i = 0; i < out.length; i++) out[i] = (out[i] ?? 0) / norm;
    return out;
  });
}

/** The credential values in request headers (`Authorization: Bearer <key>`, `api-key: <key>`, ...). */
function headerSecrets(headers: Record<string, string> | undefined): string[] {
  return Object.values(headers ?? {}).flatMap((value) => [value, value.replace(/^(Bearer|Basic)\s+/i, "")]);
}
