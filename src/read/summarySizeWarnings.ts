import { readdirSync } from "node:fs";
import { join } from "node:path";
import { globalWorkspace } from "../workspace/workspacePaths.js";
import { injectionOf, summarySource } from "./inject.js";
import { smallestCharBudget } from "./injectionBudget.js";

export interface SummarySizeWarning {
  file: string;
  chars: number;
  /** What the session-start hook keeps of it for the agent with the smallest cap. */
  keptChars: number;
  agent: string;
  cap: number;
  message: string;
}

/**
 * Summaries that the agent with the smallest output cap (Claude Code) could not take whole even
 * without the other summary: the hook cuts them at every session start. `cairn doctor` shows these
 * so the user can have phase 2 write shorter summaries instead of losing their tail.
 */
export function summarySizeWarnings(options: { memoriesRoot: string; tokenLimit: number }): SummarySizeWarning[] {
  const budget = smallestCharBudget(options.tokenLimit);
  const cap = budget.agentCap ?? budget.limit;
  const warnings: SummarySizeWarning[] = [];
  for (const dir of workspaceDirs(options.memoriesRoot)) {
    const file = join(dir, "memory_summary.md");
    const source = summarySource(file, "memory summary", file);
    if (!source) continue;
    const fitted = injectionOf({ budget, sources: [source, undefined], key: "", name: "" }).project;
    if (!fitted.truncated) continue;
    warnings.push({
      file,
      chars: source.text.length,
      keptChars: fitted.keptChars,
      agent: budget.agent,
      cap,
      message:
        `${file} has ${source.text.length} characters, but ${budget.agent} takes at most ${cap} characters of ` +
        `start-hook output (guidance included), so each session sees only its first ${fitted.keptChars}. ` +
        "Shorten it: 'cairn config set memories.summaryInjectionTokenLimit 2000' (LLM and agent consolidation " +
        "write summaries to that size), then 'cairn memory enqueue --now'; or edit the file.",
    });
  }
  return warnings;
}

function workspaceDirs(memoriesRoot: string): string[] {
  const projects = join(memoriesRoot, "projects");
  let names: string[] = [];
  try {
    names = readdirSync(projects).filter((name) => !name.startsWith("."));
  } catch {
    // No project memory yet.
  }
  return [globalWorkspace(memoriesRoot).dir, ...names.sort().map((name) => join(projects, name))];
}
