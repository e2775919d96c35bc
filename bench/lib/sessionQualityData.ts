import { existsSync } from "node:fs";
import { join } from "node:path";

/** Takes `name VALUE` out of `args` (so the rest can go to the evaluator as given). */
export function optionValue(args: string[], name: string): string | undefined {
  const index = args.indexOf(name);
  if (index < 0) return undefined;
  const value = args[index + 1];
  if (value === undefined || value.startsWith("--")) throw new Error(`${name} needs a value`);
  args.splice(index, 2);
  return value;
}

/** The session-quality evaluator, its development split and the fixture transcripts under `shared` (../shared). */
export interface SessionQualityData {
  evaluator: string;
  split: string;
  transcripts: string;
  /** The first of them that is absent (the benchmark is skipped), or undefined. */
  missing: string | undefined;
}

export function sessionQualityData(shared: string): SessionQualityData {
  const evaluator = join(shared, "bench", "session-quality", "evaluate-sessions.mjs");
  const split = join(shared, "bench", "session-quality", "dev.jsonl");
  const transcripts = join(shared, "fixtures", "transcripts");
  const missing = [evaluator, split, transcripts].find((path) => !existsSync(path));
  return { evaluator, split, transcripts, missing };
}
