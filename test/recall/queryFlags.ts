import { expect } from "vitest";
import { type AnalyzedQuery, analyzeQuery } from "../../src/recall/queryAnalyzer.js";

type Flag = { [K in keyof AnalyzedQuery]: AnalyzedQuery[K] extends boolean ? K : never }[keyof AnalyzedQuery];

/** The query analyzer sets `flag` on every question of `yes` and on none of `no`. */
export function expectQueryFlag(flag: Flag, yes: string[], no: string[]): void {
  for (const q of yes) expect(analyzeQuery(q)[flag], q).toBe(true);
  for (const q of no) expect(analyzeQuery(q)[flag], q).toBe(false);
}
