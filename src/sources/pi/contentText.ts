import { asRecord } from "../jsonl.js";

/**
 * The readable text of a pi message `content`: a plain string, or the `text` parts of a part list joined
 * by newlines. Images and thinking parts carry nothing a memory can quote, so they are left out.
 */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const texts: string[] = [];
  for (const part of content) {
    const record = asRecord(part);
    if (record?.type === "text" && typeof record.text === "string") texts.push(record.text);
  }
  return texts.join("\n");
}
