import { isTopicWord } from "../../../text/stopWords.js";
import { toIso } from "../../../util/clock.js";
import { replacedMark } from "../../../workspace/staleStatements.js";
import { projectName } from "../../../workspace/workspacePaths.js";
import { commandFamily } from "../../phase1/offline/commands.js";
import type { Stage1Output } from "../../phase1/types.js";
import { globalInputs, guardedInput } from "../consolidationInputs.js";
import { isOpenWork, openWorkOf } from "../openWork.js";
import { reportOf } from "../sessionReports.js";
import { mergeFacts, type SupportedStatement } from "./mergeFacts.js";
import { block, day, offlineSummary } from "./offlineSummary.js";
import {
  type ConsolidatedFiles,
  type ConsolidationInput,
  type Consolidator,
  currentInputs,
  type SkillFile,
} from "./types.js";

/**
 * Deterministic consolidation, used when no model is configured. Knowledge comes from the structured
 * facts of the stage-1 outputs; every statement cites the rollout summaries it came from. Removed
 * sessions are simply not read: knowledge only they supported is forgotten. Facts that state a
 * superseded memory were already taken out of the inputs; MEMORY.md lists them under "Replaced",
 * each marked with what replaced it.
 */
export const offlineConsolidator: Consolidator = {
  mode: "offline",
  async consolidate(input) {
    const inputs = currentInputs(input.diff);
    const scoped = input.workspace.kind === "global" ? globalInputs(inputs) : inputs.map(guardedInput);
    return { files: consolidateOffline(input, scoped), warnings: [] };
  },
};

export function consolidateOffline(input: ConsolidationInput, inputs: readonly Stage1Output[]): ConsolidatedFiles {
  const cite = (statement: SupportedStatement) =>
    statement.sessions
      .slice(0, 3)
      .map((id) => input.summaryFiles.get(id))
      .filter((file): file is string => Boolean(file))
      .map((file) => `[${file}]`)
      .join(" ");
  const preferences = mergeFacts(inputs, ["preference"]);
  const decisions = mergeFacts(inputs, ["decision"]);
  const procedures = mergeFacts(inputs, ["procedural"]);
  // Open work has its own section, read per session (openWork.ts).
  const knowledge = mergeFacts(inputs, ["fact", "semantic"]).filter((s) => !isOpenWork(s.text));
  const skills = skillsFrom(procedures, inputs, input.summaryFiles);
  const title = input.workspace.kind === "global" ? "Global memory" : `Memory: ${input.workspace.name}`;
  const line = (s: SupportedStatement) =>
    `- ${s.text}${s.sessions.length > 1 ? ` (${s.sessions.length} sessions)` : ""} ${cite(s)}`.trimEnd();

  const memory = [
    `# ${title}`,
    "",
    `Consolidated from ${inputs.length} session(s); updated ${toIso(input.now)}. Each entry cites the rollout summary it came from.`,
    block("Preferences", capped(preferences.map(line))),
    block("Decisions", capped(decisions.map(line))),
    block("Procedures", capped(procedures.map(line))),
    block("Failures, fixes and facts", capped(knowledge.map(line))),
    block("Open work", input.workspace.kind === "global" ? [] : openWorkLines(inputs, input.summaryFiles)),
    block(
      "How the latest sessions ended (the agent's own report, not verified)",
      input.workspace.kind === "global" ? [] : reportLines(inputs, input.summaryFiles),
    ),
    // What changed stays readable as history, each entry marked with what replaced it.
    block(
      "Replaced",
      input.stale
        .filter((entry) => entry.replacement !== null && entry.scope === input.workspace.key)
        .slice(0, 20)
        .map((entry) => `- ${entry.statement.replace(/\s+/g, " ").trim()} ${replacedMark(entry)}`),
    ),
    input.workspace.kind === "global" ? projectIndex(inputs) : taskGroups(inputs, input.summaryFiles),
  ]
    .filter((part) => part !== "")
    .join("\n");

  const summary = offlineSummary({
    title,
    global: input.workspace.kind === "global",
    inputs,
    knowledge: { preferences, decisions, procedures, knowledge },
    index: [
      "- `MEMORY.md`: preferences, decisions, procedures, failures and fixes, open work, and tasks by group, with citations.",
      ...skills.map((skill) => `- \`skills/${skill.name}/SKILL.md\`: ${skill.description}`),
      `- \`rollout_summaries/\`: ${inputs.length} session summaries; \`raw_memories.md\`: the detailed per-session memories.`,
    ],
  });
  return { memory: `${memory}\n`, summary: `${summary}\n`, skills };
}

/** What each session left open, newest session first, citing its summary. */
function openWorkLines(inputs: readonly Stage1Output[], files: ReadonlyMap<string, string>): string[] {
  return newestFirstLines(inputs, files, openWorkOf).slice(0, SECTION_ENTRIES);
}

/**
 * The final report of each of the newest sessions, dated and cited: what the agent said it built, found
 * or could not finish. A later session reads it as the agent's claim, which the section title says.
 */
function reportLines(inputs: readonly Stage1Output[], files: ReadonlyMap<string, string>): string[] {
  return newestFirstLines(inputs, files, (output) => {
    const report = reportOf(output);
    return report ? [report] : [];
  }).slice(0, REPORTS_LISTED);
}

/** Each session's entries, newest session first, one dated line each citing the session's summary. */
function newestFirstLines(
  inputs: readonly Stage1Output[],
  files: ReadonlyMap<string, string>,
  entriesOf: (output: Stage1Output) => string[],
): string[] {
  return [...inputs]
    .sort((a, b) => b.sourceUpdatedAt - a.sourceUpdatedAt)
    .flatMap((output) => {
      const cite = files.get(output.sessionId);
      return entriesOf(output).map((item) => `- ${day(output.sourceUpdatedAt)}: ${item}${cite ? ` [${cite}]` : ""}`);
    });
}

/** Reports of this many of the newest sessions: older ones are history the task groups already name. */
const REPORTS_LISTED = 10;

/** The global handbook points to projects instead of repeating their tasks. */
function projectIndex(inputs: readonly Stage1Output[]): string {
  const counts = new Map<string, number>();
  for (const output of inputs) {
    const key = output.projectKey ?? "(no project)";
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const lines = [...counts]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([key, count]) => `- ${projectName(key)} (${key}): ${count} session(s); its own MEMORY.md holds its tasks`);
  return lines.length === 0 ? "" : `\n## Projects\n${lines.join("\n")}`;
}

/**
 * Entries per section of MEMORY.md: enough for a summary an agent reads whole, where a project of
 * hundreds of sessions would otherwise list every command that once worked. The best supported and
 * most recent come first (mergeFacts); the rest stay in the memory store, and the cut says so.
 */
const SECTION_ENTRIES = 40;

function capped(lines: string[]): string[] {
  if (lines.length <= SECTION_ENTRIES) return lines;
  const more = lines.length - SECTION_ENTRIES;
  return [
    ...lines.slice(0, SECTION_ENTRIES),
    `- (${more} older or less supported not listed; \`cairn recall\` finds them)`,
  ];
}

/**
 * Tasks grouped by topic: each session joins the group of its summary word shared by the most sessions
 * (so two sessions about the same endpoint land together), newest first, each citing its summary.
 */
function taskGroups(inputs: readonly Stage1Output[], files: ReadonlyMap<string, string>): string {
  if (inputs.length === 0) return "";
  const wordsOf = (output: Stage1Output) =>
    new Set(
      `${output.rolloutSlug ?? ""} ${output.rolloutSummary}`
        .toLowerCase()
        .match(/[a-z][a-z0-9_-]{3,}/g)
        ?.filter((word) => isTopicWord(word) && !GROUP_NOISE.has(word)) ?? [],
    );
  const words = new Map(inputs.map((output) => [output.sessionId, wordsOf(output)]));
  const frequency = new Map<string, number>();
  for (const set of words.values()) for (const word of set) frequency.set(word, (frequency.get(word) ?? 0) + 1);
  const groups = new Map<string, Stage1Output[]>();
  for (const output of [...inputs].sort((a, b) => b.sourceUpdatedAt - a.sourceUpdatedAt)) {
    const candidates = [...(words.get(output.sessionId) ?? [])].sort(
      (a, b) => (frequency.get(b) ?? 0) - (frequency.get(a) ?? 0) || a.localeCompare(b),
    );
    const top = candidates[0];
    const group = top && (frequency.get(top) ?? 0) > 1 ? top : (output.rolloutSlug ?? "other").split("-")[0] || "other";
    groups.set(group, [...(groups.get(group) ?? []), output]);
  }
  const sections = [...groups]
    .sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]))
    .map(([group, outputs]) => {
      const lines = outputs.map((output) => {
        const summary = output.rolloutSummary.replace(/\s+/g, " ").trim();
        const short = summary.length > 300 ? `${summary.slice(0, 299)}…` : summary;
        return `- ${day(output.sourceUpdatedAt)} ${short} [${files.get(output.sessionId) ?? output.sessionId}]`;
      });
      return `\n### ${group}\n${lines.join("\n")}`;
    });
  return `\n## Tasks by group${sections.join("\n")}`;
}

/** Words of the offline summaries' own phrasing, which say nothing about the topic. */
const GROUP_NOISE = new Set([
  "user",
  "asked",
  "agent",
  "commands",
  "failed",
  "ended",
  "follow-up",
  "requests",
  "shell",
  "edited",
  "stated",
  "preference",
  "worth",
  "keeping",
  "session",
]);

/** A command family that worked in two or more sessions becomes a skill with the exact command lines. */
function skillsFrom(
  procedures: readonly SupportedStatement[],
  inputs: readonly Stage1Output[],
  files: ReadonlyMap<string, string>,
): SkillFile[] {
  const families = new Map<string, { commands: Set<string>; sessions: Set<string> }>();
  for (const procedure of procedures) {
    const command = commandOf(procedure.text);
    if (!command) continue;
    const family = commandFamily(command);
    const entry = families.get(family) ?? { commands: new Set(), sessions: new Set() };
    entry.commands.add(command);
    for (const session of procedure.sessions) entry.sessions.add(session);
    families.set(family, entry);
  }
  const failures = mergeFacts(inputs, ["fact"]);
  return [...families]
    .filter(([, entry]) => entry.sessions.size >= 2)
    .sort((a, b) => b[1].sessions.size - a[1].sessions.size || a[0].localeCompare(b[0]))
    .slice(0, 10)
    .map(([family, entry]) => {
      const name = `run-${family.replace(/[^a-z0-9]+/gi, "-").toLowerCase()}`.replace(/-+$/, "");
      const related = failures.filter((fact) => fact.text.includes(family)).slice(0, 5);
      const body = [
        `# ${family}`,
        "",
        `Seen working in ${entry.sessions.size} sessions.`,
        "",
        "## Commands",
        ...[...entry.commands].map((command) => `- \`${command}\``),
        ...(related.length > 0 ? ["", "## Known failures", ...related.map((fact) => `- ${fact.text}`)] : []),
        "",
        "## Evidence",
        ...[...entry.sessions].slice(0, 5).map((id) => `- ${files.get(id) ?? id}`),
      ].join("\n");
      return {
        name,
        description: `How to run \`${family}\` here, from ${entry.sessions.size} sessions where it worked.`,
        body,
      };
    });
}

/** The command inside backticks of a procedural fact, if any. */
function commandOf(text: string): string | undefined {
  return /`([^`]+)`/.exec(text)?.[1];
}
