import { toIso } from "../../../util/clock.js";
import { projectName } from "../../../workspace/workspacePaths.js";
import type { Stage1Output } from "../../phase1/types.js";
import { openWorkOf } from "../openWork.js";
import type { SupportedStatement } from "./mergeFacts.js";

/** The merged statements of a workspace's current sessions, by kind. */
export interface SummaryKnowledge {
  preferences: readonly SupportedStatement[];
  decisions: readonly SupportedStatement[];
  procedures: readonly SupportedStatement[];
  /** Facts of the project and failures with their fixes, not yet told apart. */
  knowledge: readonly SupportedStatement[];
}

/** Open work of this many of the newest sessions that left some: older lists are likely done. */
const OPEN_WORK_SESSIONS = 3;

/**
 * memory_summary.md as offline consolidation writes it: what a new session most needs first, each
 * entry dated with the day it was last said. Decisions in force, key facts of the project, pitfalls
 * with their fixes and open work come before preferences and tips, because injection cuts a summary
 * from the end when it does not fit. Superseded statements never reach here: they were dropped from
 * the inputs. The profile and the index say what memory exists and hold no knowledge (see
 * workspace/summarySections.ts): a summary with nothing else is not injected.
 */
export function offlineSummary(options: {
  title: string;
  global: boolean;
  inputs: readonly Stage1Output[];
  knowledge: SummaryKnowledge;
  index: string[];
}): string {
  const { inputs, knowledge } = options;
  const saidOn = new Map(inputs.map((output) => [output.sessionId, output.sourceUpdatedAt]));
  const dated = (s: SupportedStatement) =>
    `- ${day(saidOn.get(s.sessions[0] ?? "") ?? 0)}: ${s.text}${s.sessions.length > 1 ? ` (${s.sessions.length}x)` : ""}`;
  const pitfalls = knowledge.knowledge.filter((s) => reportsFailure(s.text));
  const facts = knowledge.knowledge.filter((s) => !reportsFailure(s.text));
  const agents = [...new Set(inputs.map((output) => output.agent ?? "unknown"))].sort();
  const projects = [...new Set(inputs.map((output) => output.projectKey).filter((key): key is string => Boolean(key)))];
  const span =
    inputs.length > 0
      ? `${day(Math.min(...inputs.map((o) => o.sourceUpdatedAt)))} to ${day(Math.max(...inputs.map((o) => o.sourceUpdatedAt)))}`
      : "none";
  return [
    "v1",
    `# ${options.title} (summary)`,
    "",
    "## Profile",
    `- ${inputs.length} session(s) from ${agents.join(", ") || "no agents"}, ${span}.`,
    ...(options.global && projects.length > 0
      ? [`- Projects: ${projects.slice(0, 10).map(projectName).join(", ")}.`]
      : []),
    block("Decisions in force", knowledge.decisions.slice(0, 8).map(dated)),
    block("Key facts of the project", facts.slice(0, 10).map(dated)),
    block("Pitfalls and fixes", pitfalls.slice(0, 8).map(dated)),
    block("Open work", options.global ? [] : openWork(inputs)),
    block("User preferences", knowledge.preferences.slice(0, 15).map(dated)),
    block("Tips", knowledge.procedures.slice(0, 8).map(dated)),
    block("What is in memory", options.index),
  ]
    .filter((part) => part !== "")
    .join("\n");
}

/** What the newest sessions left unfinished, newest first, each dated with its session. */
function openWork(inputs: readonly Stage1Output[]): string[] {
  return [...inputs]
    .sort((a, b) => b.sourceUpdatedAt - a.sourceUpdatedAt)
    .map((output) => ({ on: day(output.sourceUpdatedAt), items: openWorkOf(output) }))
    .filter((session) => session.items.length > 0)
    .slice(0, OPEN_WORK_SESSIONS)
    .flatMap((session) => session.items.map((item) => `- ${session.on}: ${item}`))
    .slice(0, 10);
}

/** A verb form that reports a failure seen ("failed", "fails", "crashed", "threw", "panicked", "breaks"). */
const FAILURE_VERB =
  /\b(?:fail(?:s|ed|ing)?|crash(?:es|ed)|throws|threw|thrown|panick?(?:s|ed)|broke|breaks|timed out)\b/i;
/** An error told together with what fixes it ("Error and fix: ...", "error TS2307 ...; fixed by ..."). */
const ERROR_WITH_FIX = /\berrors?\b[\s\S]*\bfix(?:es|ed)?\b|\bfix(?:es|ed)?\b[\s\S]*\berrors?\b/i;

/**
 * Whether a statement reports a failure (a pitfall) rather than a fact: a failure verb, or an error
 * with its fix, outside its quoted and backticked parts (commands and output, not what it says).
 * "Error status" or "export failures must never block a request" name failures without reporting one.
 */
export function reportsFailure(text: string): boolean {
  const said = text.replace(/`[^`\n]*`|"[^"\n]*"/g, " ");
  return FAILURE_VERB.test(said) || ERROR_WITH_FIX.test(said);
}

/** A Markdown section, or nothing when it has no lines. */
export function block(title: string, lines: string[]): string {
  return lines.length === 0 ? "" : `\n## ${title}\n${lines.join("\n")}`;
}

/** The day (YYYY-MM-DD) of an epoch-ms time. */
export function day(ms: number): string {
  return (toIso(ms) ?? "").slice(0, 10);
}
