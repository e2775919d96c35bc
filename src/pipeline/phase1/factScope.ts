import { statesUserWideHabit } from "../../text/statesUserWideHabit.js";
import type { ExtractedFact } from "./types.js";

/**
 * The model's scope when it gave one: it read the whole session, where the wording of one sentence
 * ("the user always wants ...") says little about whether a rule holds outside this repository.
 */
export function isGlobalFact(fact: Pick<ExtractedFact, "type" | "content" | "scope">): boolean {
  if (fact.scope !== undefined) return fact.scope === "global";
  return fact.type === "preference" && statesUserWideHabit(fact.content);
}
