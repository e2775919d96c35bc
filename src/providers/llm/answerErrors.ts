import { ProviderError } from "./types.js";

/**
 * A 2xx answer without the expected shape. Retryable: it is usually a proxy or an overloaded server
 * answering oddly, and a retry is cheap next to losing the session's extraction.
 */
export function malformedAnswer(provider: string, problem: string, answer: unknown): ProviderError {
  return new ProviderError({
    provider,
    kind: "malformed",
    message: `${provider}: ${problem}`,
    isRetryable: true,
    responseBody: (typeof answer === "string" ? answer : (JSON.stringify(answer) ?? "")).slice(0, 10_000),
  });
}

/** The model declined. Asking again with the same input gives the same answer, so not retryable. */
export function refusal(provider: string, detail: string): ProviderError {
  return new ProviderError({
    provider,
    kind: "refusal",
    message: `${provider}: the model refused: ${detail.replace(/\s+/g, " ").slice(0, 200)}`,
    isRetryable: false,
  });
}

/** A reported token count, or undefined when the provider did not report one (never 0 for unknown). */
export function tokenCount(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** Sum of the reported counts; undefined only when none was reported. */
export function sumTokenCounts(...values: unknown[]): number | undefined {
  const known = values.map(tokenCount).filter((value): value is number => value !== undefined);
  return known.length === 0 ? undefined : known.reduce((sum, value) => sum + value, 0);
}
