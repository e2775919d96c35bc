import { existsSync } from "node:fs";
import { join } from "node:path";
import { GLOBAL_SCOPE } from "../memory/scopes.js";
import { projectIdentity } from "../project/projectKey.js";
import { nativeModuleFault } from "../store/nativeModuleFault.js";
import { errorMessage } from "../util/errors.js";
import { workspaceForCwd } from "../workspace/projectIndex.js";
import { StaleMatcher, type StaleStatement, staleAsSeenFrom, stripDoubtMarks } from "../workspace/staleStatements.js";
import { summaryHoldsKnowledge } from "../workspace/summarySections.js";
import { parseSupersededFile, SUPERSEDED_FILE, SUPERSEDED_FILE_MAX_BYTES } from "../workspace/supersededFile.js";
import { GLOBAL_WORKSPACE, globalWorkspace } from "../workspace/workspacePaths.js";
import type { EmptyInjectionReason } from "./emptyInjectionReason.js";
import { fitInjection, type SummaryFit, type SummarySource } from "./fitInjection.js";
import { type InjectionBudget, injectionBudget } from "./injectionBudget.js";
import { injectionGuidance } from "./injectionGuidance.js";
import { neutralizeMemoryText, singleLine } from "./quoteMemory.js";
import { readRegularFile } from "./readRegularFile.js";
import type { ReadRemembered, RememberedRead } from "./rememberedMemories.js";
import { keptMemoryLines, rememberedSource } from "./rememberedSource.js";

export interface Injection {
  /** The whole block for the agent's context; empty when there is no memory to give. */
  text: string;
  /** The budget the block was fitted to, and the block's length in characters. */
  budget: { agent: string; unit: "chars" | "tokens"; limit: number; agentCap?: number; chars: number };
  /** The project's summary. */
  project: { key: string; name: string } & SummaryFit;
  /** The global summary. */
  global: SummaryFit;
  /** The memories remembered in the project's scopes and in global, and how much of each list was kept. */
  remembered: { project: RememberedFit & { scopes: string[] }; global: RememberedFit };
  /** Why part of the memory could not be read (one line each); the rest of the block is still given. */
  warnings: string[];
  /** When the block is empty: what was looked for and why nothing came (`withEmptyReason`). */
  reason?: EmptyInjectionReason;
}

/** A list of remembered memories as fitted: the summary figures, plus counts of memories. */
export interface RememberedFit extends SummaryFit {
  /** Memories listed before fitting (at most the per-scope limit). */
  memories: number;
  /** Memories whose line the block kept whole. */
  keptMemories: number;
  /** Older remembered memories exist beyond the per-scope limit (recall finds them). */
  more: boolean;
}

/** Remembered memories to list, and the reader they come from. */
export interface RememberedOption {
  read: ReadRemembered;
  /** Per group of scopes (the project's, global); 0 lists none. */
  limit: number;
}

const MAX_SUMMARY_BYTES = 4 * 1024 * 1024;

/**
 * The Memory Guidance block a session starting in `cwd` receives: the shipped guidance template, the
 * memories remembered in the project and globally (when `remembered` gives a reader), and the project
 * and global memory summaries, fitted to the agent's budget (`agent`, default `generic`: the token
 * limit). Priority, which is also the order shown: project remembered, global remembered, project
 * summary, global summary. Remembered memories are the user's own explicit statements, short and
 * capped in number, and nothing else carries them (phase 2 consolidates sessions only); the project
 * comes before global because a repository's own memory matters most in that repository.
 * Reads files, and the store only through `remembered`: a store that cannot be read leaves its
 * sections out with a warning, never an error. A last guard runs over both summaries: a sentence that
 * states a memory phase 2 last listed as superseded is marked as replaced (withdrawn ones are left
 * out), so a workspace written before the change cannot present it as current.
 */
export function buildInjection(options: {
  memoriesRoot: string;
  cwd: string;
  tokenLimit: number;
  agent?: string;
  remembered?: RememberedOption | undefined;
  /** Characters of an agent's cap to leave free for text given beside the block (a checkpoint's digest). */
  reserveChars?: number;
}): Injection {
  const budget = reserved(injectionBudget(options.agent ?? "generic", options.tokenLimit), options.reserveChars ?? 0);
  const workspace = workspaceForCwd(options.memoriesRoot, options.cwd);
  const stale = supersededStatements(options.memoriesRoot);
  const project = summarySource(
    join(workspace.dir, "memory_summary.md"),
    `Project memory (${singleLine(workspace.name)}), memory://root/memory_summary.md`,
    "memory://root/memory_summary.md",
    () => matcherFor(stale, [workspace.key, GLOBAL_WORKSPACE]),
  );
  const global = summarySource(
    join(globalWorkspace(options.memoriesRoot).dir, "memory_summary.md"),
    "Global memory, memory://global/memory_summary.md",
    "memory://global/memory_summary.md",
    () => matcherFor(staleAsSeenFrom(stale, GLOBAL_WORKSPACE), "all"),
  );
  // Remember stores under the cwd's identity; sessions may have put the project under another key.
  const scopes = [...new Set([projectIdentity(options.cwd).key, workspace.key])];
  const warnings: string[] = [];
  // A folder that does not exist (a mistyped --cwd, a path from another machine) has no repository to
  // tell its project by: without a word, global memory alone reads as "this project has no memory".
  if (!existsSync(options.cwd))
    warnings.push(
      `${singleLine(options.cwd)} does not exist (a mistyped --cwd?): its project cannot be told, so only memory kept under that exact path and the global memory are given`,
    );
  const read = readRemembered(options.remembered, { project: scopes, global: [GLOBAL_SCOPE] }, warnings);
  if (read && read.withheld.length > 0)
    warnings.push(
      `remembered memories ${read.withheld.map((id) => `#${id}`).join(", ")} left out: worded as instructions to an AI agent (cairn memory edit or forget them)`,
    );
  return injectionOf({
    budget,
    sources: [project, global],
    key: workspace.key,
    name: workspace.name,
    remembered: {
      scopes,
      project:
        read &&
        rememberedSource(read.project, `Remembered for this project (${singleLine(workspace.name)})`, read.doubted),
      global: read && rememberedSource(read.global, "Remembered for every project (global)", read.doubted),
      more: { project: read?.project.more ?? false, global: read?.global.more ?? false },
    },
    warnings,
  });
}

/**
 * A character budget less `chars` (left for text the caller gives beside the block, within the agent's
 * one cap); a token budget is not a cap on the whole output, so it stays.
 */
function reserved(budget: InjectionBudget, chars: number): InjectionBudget {
  if (chars <= 0 || budget.unit !== "chars") return budget;
  const limit = Math.max(0, budget.limit - chars);
  return { ...budget, limit, fits: (text) => text.length <= limit && JSON.stringify(text).length - 2 <= limit };
}

/** The remembered memories, or undefined (with a warning when the store could not be read). */
function readRemembered(
  option: RememberedOption | undefined,
  scopes: { project: string[]; global: string[] },
  warnings: string[],
): RememberedRead | undefined {
  if (!option || option.limit <= 0) return undefined;
  try {
    return option.read({ ...scopes, limit: option.limit });
  } catch (error) {
    warnings.push(`remembered memories left out: ${nativeModuleFault(error) ?? singleLine(errorMessage(error), 400)}`);
    return undefined;
  }
}

/** Remembered memories as sources to fit, per group (undefined: none to list). */
export interface RememberedSources {
  scopes: string[];
  project: SummarySource | undefined;
  global: SummarySource | undefined;
  more: { project: boolean; global: boolean };
}

/** Fits already-read sources (remembered first, then the project and global summaries) into a budget. */
export function injectionOf(options: {
  budget: InjectionBudget;
  sources: [SummarySource | undefined, SummarySource | undefined];
  key: string;
  name: string;
  remembered?: RememberedSources;
  warnings?: string[];
}): Injection {
  const { budget, remembered } = options;
  const sources = [remembered?.project, remembered?.global, ...options.sources];
  const [projectSource, globalSource] = options.sources;
  const guidance = (included: readonly SummarySource[]) =>
    injectionGuidance({
      remembered: included.some((source) => source === remembered?.project || source === remembered?.global),
      project: projectSource !== undefined && included.includes(projectSource),
      global: globalSource !== undefined && included.includes(globalSource),
    });
  const fitted = fitInjection({ guidance, sources, budget });
  const [rememberedProject, rememberedGlobal, project, global] = fitted.fits as [
    SummaryFit,
    SummaryFit,
    SummaryFit,
    SummaryFit,
  ];
  const rememberedFit = (source: SummarySource | undefined, fit: SummaryFit, more: boolean): RememberedFit => ({
    ...fit,
    memories: source ? keptMemoryLines(source.text, source.text.length) : 0,
    keptMemories: source && fit.included ? keptMemoryLines(source.text, fit.keptChars) : 0,
    more,
  });
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
    remembered: {
      project: {
        scopes: remembered?.scopes ?? [],
        ...rememberedFit(remembered?.project, rememberedProject, remembered?.more.project ?? false),
      },
      global: rememberedFit(remembered?.global, rememberedGlobal, remembered?.more.global ?? false),
    },
    warnings: options.warnings ?? [],
  };
}

/**
 * A summary file as a neutralized source, or undefined when it is missing, not a plain file, or holds
 * no knowledge (nothing but its profile and index; see workspace/summarySections.ts).
 */
export function summarySource(
  path: string,
  title: string,
  url: string,
  // Built only for a summary that exists: preparing the matcher costs more than the rest of injection.
  stale?: () => StaleMatcher | undefined,
): SummarySource | undefined {
  let text: string;
  try {
    // Never blocks: a FIFO planted as the summary is refused, not waited on (the hook must answer).
    text = readRegularFile(path, { label: url, maxBytes: MAX_SUMMARY_BYTES });
  } catch {
    return undefined;
  }
  // The first line is the format version, not content. Doubt marks are those of the flags open now,
  // from the list, not those open when phase 2 wrote the file.
  const current = stripDoubtMarks(text.replace(/^v\d+\s*\n/, ""));
  const matcher = stale?.();
  const body = neutralizeMemoryText(matcher ? matcher.revise(current).text : current).trim();
  // A summary that only says memory exists (its profile and index) costs every session the guidance
  // and tells it nothing: it is not given.
  return summaryHoldsKnowledge(body) ? { title, url, text: body } : undefined;
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
