import { words } from "../../text/tokenize.js";
import { isKnownTool, toolsOfItsKinds } from "../../text/toolKinds.js";
import { SAYS_CHANGE } from "./toolSwap.js";

/**
 * An FTS OR-query over the tools a memory may have moved from: when it says it is a change ("we moved
 * to pnpm", "tests run with vitest now"), the other tools of the kinds it names. Such a memory shares
 * no word with the one it replaces ("we use npm"); "" when it says no change or names no known tool.
 */
export function swappedFromQuery(content: string): string {
  if (!SAYS_CHANGE.test(content)) return "";
  const named = new Set(words(content).filter(isKnownTool));
  const others = new Set([...named].flatMap(toolsOfItsKinds).filter((tool) => !named.has(tool)));
  return [...others].map((tool) => `"${tool}"`).join(" OR ");
}
