/** Strips `<think>` blocks and Markdown fences some models wrap around JSON. */
function cleanModelJson(text: string): string {
  return text
    .replace(/<think>[\s\S]*?<\/think>/gi, "")
    .replace(/^\s*```(?:json)?\s*/i, "")
    .replace(/\s*```\s*$/, "")
    .trim();
}

/**
 * A model's answer as JSON, after cleaning; the problem instead of a throw, so that each answer parser
 * can record it and fall back or retry.
 */
export function readModelJson(text: string): { value: unknown } | { problem: string } {
  try {
    return { value: JSON.parse(cleanModelJson(text)) };
  } catch {
    return { problem: "the answer is not JSON" };
  }
}
