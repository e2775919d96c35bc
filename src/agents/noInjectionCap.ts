import type { InjectionLimit } from "./types.js";

/** The injection limit of an agent that documents no cap on what its start mechanism carries. */
export const NO_INJECTION_CAP: InjectionLimit = {
  unit: "tokens",
  why: "no documented cap on this path: memories.summaryInjectionTokenLimit rules",
};
