import type { Stage1Output } from "../phase1/types.js";
import { sectionItems } from "./rawMemorySections.js";

/** The raw memory's section holding how the session ended: the agent's final report. */
const OUTCOME_HEADING = /^#{2,4}\s+(?:outcome|result|how it ended|final report)\b/i;

/**
 * How a session ended, in the agent's words: the first item of its raw memory's outcome section, or
 * null. It is the agent's claim about its own work (what it built, found or could not finish), so
 * MEMORY.md shows it as reported, never as established fact.
 */
export function reportOf(output: Pick<Stage1Output, "rawMemory">): string | null {
  const [first] = sectionItems(output.rawMemory, OUTCOME_HEADING);
  const text = first?.replace(/\s+/g, " ").trim();
  return text ? text : null;
}
