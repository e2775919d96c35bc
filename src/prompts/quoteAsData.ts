import { randomBytes } from "node:crypto";

/**
 * Stored text in a prompt, as JSON between marker lines with a random boundary: text cannot predict
 * the boundary, so it cannot fake the end of the data section (the stage-1 and consolidation prompts
 * draw the same markers from their templates).
 */
export function quoteAsData(label: "MEMORY DATA" | "SESSION DATA", value: unknown): string {
  const boundary = randomBytes(6).toString("hex");
  return `<<<${label} ${boundary}>>>\n${JSON.stringify(value)}\n<<<END ${label} ${boundary}>>>`;
}
