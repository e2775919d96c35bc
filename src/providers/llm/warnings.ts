import type { LlmRequest } from "./types.js";

type TunableOption = "temperature" | "maxOutputTokens";

/** One warning per request option a provider cannot pass on (STYLE: warnings, not exceptions or silence). */
export function unsupportedOptionWarnings(
  provider: string,
  request: LlmRequest,
  unsupported: ReadonlyArray<TunableOption>,
): string[] {
  return unsupported
    .filter((option) => request[option] !== undefined)
    .map((option) => `${provider}: ${option} is not supported and was ignored`);
}
