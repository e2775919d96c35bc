import { parseCitations } from "../../read/citations.js";
import type { ItemRecord } from "../../store/types/sessionRecord.js";

/** Relevance the evidence gives: a memory the agent cited was used; one a recall showed it was seen. */
export const CITED = 1;
export const RECALLED = 0.6;
/** How sure counting can be: it sees citations and recall results, not whether the work followed them. */
export const EVIDENCE_CONFIDENCE = 0.4;

// A recall result as the MCP tool prints it ("[score 0.82, fact, scope global, id 42") and as the CLI
// prints it ("0.82  #42 [fact, ...").
const MCP_RESULT = /\[score [0-9.]+,[^\]\n]*?\bid (\d{1,15})\b/g;
const CLI_RESULT = /^\s*[0-9.]+\s+#(\d{1,15}) \[/gm;

/**
 * What a session's own items show of the memories it was given, without a model: the ids the agent
 * cited in its citation blocks, and the ids recall results showed it (a tool result of cairn's recall).
 */
export function evidenceOf(items: readonly ItemRecord[], given: ReadonlySet<number>): Map<number, number> {
  const relevance = new Map<number, number>();
  const raise = (id: number, value: number) => {
    if (given.has(id) && (relevance.get(id) ?? 0) < value) relevance.set(id, value);
  };
  for (const item of items) {
    if (item.role === "assistant") {
      for (const id of parseCitations(item.text).memoryIds) raise(id, CITED);
    } else if (item.role === "tool_result") {
      for (const match of item.text.matchAll(MCP_RESULT)) raise(Number(match[1]), RECALLED);
      for (const match of item.text.matchAll(CLI_RESULT)) raise(Number(match[1]), RECALLED);
    }
  }
  return relevance;
}
