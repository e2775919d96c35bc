import { asRecord } from "../jsonl.js";

/**
 * The text of a Gemini `PartListUnion` (a string, one part, or a list of either). Thought parts are the
 * model's reasoning and are left out, as are inline data and function calls (tool calls are recorded
 * separately in `toolCalls`).
 */
export function partsText(content: unknown): string {
  if (typeof content === "string") return content;
  const parts = Array.isArray(content) ? content : [content];
  const texts: string[] = [];
  for (const value of parts) {
    if (typeof value === "string") texts.push(value);
    const part = asRecord(value);
    if (part && typeof part.text === "string" && part.thought !== true) texts.push(part.text);
  }
  return texts.join("\n");
}

/** Output of a tool call's `result` parts: each functionResponse's `output` (or `error`), plus plain text parts. */
export function toolResultText(result: unknown): { text: string; isError: boolean } {
  const parts = Array.isArray(result) ? result : [result];
  const texts: string[] = [];
  let isError = false;
  for (const value of parts) {
    const part = asRecord(value);
    const response = asRecord(asRecord(part?.functionResponse)?.response);
    if (response) {
      if (response.error !== undefined) isError = true;
      const output = response.output ?? response.error ?? response;
      texts.push(typeof output === "string" ? output : JSON.stringify(output));
    } else if (typeof value === "string") texts.push(value);
    else if (part && typeof part.text === "string") texts.push(part.text);
  }
  return { text: texts.join("\n"), isError };
}
