import { join } from "node:path";
import { loadPrompt } from "../prompts/template.js";
import { workspaceForCwd } from "../workspace/projectIndex.js";
import { StaleMatcher, type StaleStatement, staleAsSeenFrom } from "../workspace/staleStatements.js";
import { parseSupersededFile, SUPERSEDED_FILE, SUPERSEDED_FILE_MAX_BYTES } from "../workspace/supersededFile.js";
import { GLOBAL_WORKSPACE, globalWorkspace } from "../workspace/workspacePaths.js";
import { fitInjection, type SummaryFit, type SummarySource } from "./fitInjection.js";
import { type InjectionBudget, injectionBudget } from "./injectionBudget.js";
import { neutralizeMemoryText, singleLine } from "./quoteMemory.js";
import { readRegularFile } from "./readRegularFile.js";

export interface Injection {
  /** The whole block for the agent's context; empty when there is no memory to give. */
  text: string;
  /** The budget the block was fitted to, and the block's length in characters. */
  budget: { agent: string; unit: "chars" | "tokens"; limit: number; agentCap?: number; chars: number };
  project: { key: string; name: string } & SummaryFit;
  global: SummaryFit;
}

const MAX_SUMMARY_BYTES = 4 * 1024 * 1024;

/**
 * The Memory Guidance block a session starting in `cwd` receives: the shipped guidance template and the
 * project and global memory summaries, fitted to the agent's budget (`agent`, default `generic`: the
 * token limit). The project keeps its share first, because a repository's own memory matters most in
 * that repository. Reads files only: no database, no model, so it is fast enough for a start hook.
 * A last guard runs over both summaries: a sentence that states a memory phase 2 last listed as
 * superseded is marked as replaced (withdrawn ones are left out), so a workspace written before the
 * change cannot present it as current.
 */
export function buildInjection(options: {
  memoriesRoot: string;
  cwd: string;
  tokenLimit: number;
  agent?: string;
}): Injection {
  const budget = injectionBudget(options.agent ?? "generic", options.tokenLimit);
  const workspace = workspaceForCwd(options.memoriesRoot, options.cwd);
  const stale = supersededStatements(options.memoriesRoot);
  const project = summarySource(
    join(workspace.dir, "memory_summary.md"),
    `Project memory (${singleLine(workspace.name)}), memory://root/memory_summary.md`,
    "memory://root/memory_summary.md",
    matcherFor(stale, [workspace.key, GLOBAL_WORKSPACE]),
  );
  const global = summarySource(
    join(globalWorkspace(options.memoriesRoot).dir, "memory_summary.md"),
    "Global memory, memory://global/memory_summary.md",
    "memory://global/memory_summary.md",
    matcherFor(staleAsSeenFrom(stale, GLOBAL_WORKSPACE), "all"),
  );
  return injectionOf({ budget, sources: [project, global], key: workspace.key, name: workspace.name });
}

/** Fits already-read summaries (project first, then global) into a budget. */
export function injectionOf(options: {
  budget: InjectionBudget;
  sources: [SummarySource | undefined, SummarySource | undefined];
  key: string;
  name: string;
}): Injection {
  const { budget } = options;
  const fitted = fitInjection({ guidance: loadPrompt("read_path.md"), sources: options.sources, budget });
  const [project, global] = fitted.fits as [SummaryFit, SummaryFit];
  return {
    text: fitted.text,
    budget: {
      agent: budget.agent,
      unit: budget.unit,
      limit: budget.limit,
      ...(budget.agentCap === undefined ? {} : { agentCap: budget.agentCap }),
      chars: fitted.text.length,
    },
    project: { key: options.key, name: options.name, ...project },
    global,
  };
}

/** A summary file as a neutralized source, or undefined when it is missing, empty or not a plain file. */
export function summarySource(
  path: string,
  title: string,
  url: string,
  stale?: StaleMatcher,
): SummarySource | undefined {
  let text: string;
  try {
    // Never blocks: a FIFO planted as the summary is refused, not waited on (the hook must answer).
    text = readRegularFile(path, { label: url, maxBytes: MAX_SUMMARY_BYTES });
  } catch {
    return undefined;
  }
  // The first line is the format version, not content.
  const current = text.replace(/^v\d+\s*\n/, "");
  const body = neutralizeMemoryText(stale ? stale.revise(current).text : current).trim();
  return body.length > 0 ? { title, url, text: body } : undefined;
}

/** What phase 2 last listed as no longer true; empty without a readable list. */
function supersededStatements(memoriesRoot: string): StaleStatement[] {
  try {
    const text = readRegularFile(join(memoriesRoot, SUPERSEDED_FILE), {
      label: SUPERSEDED_FILE,
      maxBytes: SUPERSEDED_FILE_MAX_BYTES,
    });
    return parseSupersededFile(text);
  } catch {
    return [];
  }
}

function matcherFor(stale: readonly StaleStatement[], scopes: string[] | "all"): StaleMatcher | undefined {
  const relevant = scopes === "all" ? stale : stale.filter((entry) => scopes.includes(entry.scope));
  return relevant.length === 0 ? undefined : new StaleMatcher(relevant);
}
