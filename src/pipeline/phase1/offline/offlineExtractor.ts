import type { ItemRecord, SessionRecord } from "../../../collection/types.js";
import { isTopicWord } from "../../../text/stopWords.js";
import type { EntityTriple, ExtractedFact, Stage1Extraction } from "../types.js";
import { type CommandRun, commandFamily, commandRuns } from "./commands.js";
import { outwardCommandPattern, procedureCommandPattern } from "./patterns.js";
import { headline } from "./sentences.js";
import { type Evidence, readSession, type SessionReading } from "./sessionReading.js";

/** What a session says, gathered once; the summary, the raw memory and the facts are written from it. */
interface SessionEvidence extends Omit<SessionReading, "firstRequest"> {
  mainTask: string;
  procedures: ReturnType<typeof workedProcedures>;
  fixes: ReturnType<typeof failuresAndFixes>;
}

/**
 * The deterministic extractor used when no model is configured: it reads what the session itself
 * says (requests, durable preferences, decisions, commands that worked, failures and their fixes,
 * files edited) and writes the same stage-1 shape a model would. Returns null when the session holds
 * nothing a future session could use. The items are read once, in order (a stored session a page at
 * a time: see sessionReading.ts).
 */
export function extractOffline(session: SessionRecord, items: Iterable<ItemRecord>): Stage1Extraction | null {
  const evidence = gatherEvidence(session, items);
  if (!evidence) return null;
  const { mainTask, keywords } = evidence;
  return {
    rolloutSummary: summaryOf(evidence),
    rolloutSlug: slug(taskWords(mainTask).slice(0, 6).join(" ") || keywords.slice(0, 4).join(" ")),
    rawMemory: rawMemoryOf(session, evidence),
    facts: facts(evidence),
    entities: entities(session, evidence.procedures, evidence.files),
  };
}

function gatherEvidence(session: SessionRecord, items: Iterable<ItemRecord>): SessionEvidence | null {
  const reading = readSession(session, items);
  if (!reading) return null;
  const { firstRequest, ...rest } = reading;
  return {
    ...rest,
    mainTask: reading.tasks[0]?.text ?? firstRequest,
    procedures: workedProcedures(reading.runs),
    fixes: failuresAndFixes(reading.runs),
  };
}

function summaryOf({ mainTask, tasks, runs, files, outcome, preferences }: SessionEvidence): string {
  return [
    `The user asked: "${mainTask}".`,
    tasks.length > 1
      ? `Follow-up requests: ${tasks
          .slice(1, 4)
          .map((t) => `"${t.text}"`)
          .join("; ")}.`
      : "",
    runs.length > 0
      ? `The agent ran ${runs.length} shell commands (${runs.filter((r) => r.outcome === "failed").length} failed).`
      : "",
    files.length > 0
      ? `Files edited most: ${files
          .slice(0, 4)
          .map((f) => f.path)
          .join(", ")}.`
      : "",
    outcome ? `It ended with: "${headline(outcome.text, 200)}".` : "",
    preferences.length > 0 ? `The user stated ${preferences.length} preference(s) worth keeping.` : "",
  ]
    .filter(Boolean)
    .join(" ");
}

function rawMemoryOf(session: SessionRecord, evidence: SessionEvidence): string {
  const {
    mainTask,
    tasks,
    outcome,
    preferences,
    decisions,
    projectFacts,
    procedures,
    fixes,
    files,
    compactions,
    keywords,
  } = evidence;
  return [
    section("Task", [
      `${mainTask} (${session.agent} session in ${session.cwd ?? "an unknown directory"})`,
      ...tasks.slice(1, 8).map((t) => `Then: ${t.text}`),
    ]),
    section("Outcome", outcome ? [headline(outcome.text, 400)] : []),
    section(
      "Preferences",
      preferences.map((p) => p.text),
    ),
    section(
      "Decisions",
      decisions.map((d) => d.text),
    ),
    section(
      "Project facts",
      projectFacts.map((f) => f.text),
    ),
    section(
      "Procedures",
      procedures.map((p) => `\`${p.command}\` worked${p.times > 1 ? ` (${p.times} times)` : ""}`),
    ),
    section(
      "Failures and fixes",
      fixes.map(
        (f) =>
          `\`${f.failed.command}\` failed (${f.failed.errorLine ?? "error"}); later \`${f.fixed.command}\` succeeded`,
      ),
    ),
    section(
      "Files",
      files.map((f) => `${f.path} (${f.edits} edit${f.edits > 1 ? "s" : ""})`),
    ),
    section("Earlier context (compaction summaries)", compactions),
    section("Keywords", keywords.length > 0 ? [keywords.join(", ")] : []),
  ]
    .filter(Boolean)
    .join("\n\n");
}

function section(title: string, bullets: string[]): string {
  return bullets.length === 0 ? "" : `## ${title}\n${bullets.map((bullet) => `- ${bullet}`).join("\n")}`;
}

interface Procedure {
  command: string;
  times: number;
  itemId: number;
}

/** Build/test/lint commands that succeeded, by command line, most used first. */
function workedProcedures(runs: readonly CommandRun[]): Procedure[] {
  const byCommand = new Map<string, Procedure>();
  for (const run of runs) {
    if (run.outcome !== "succeeded" || !procedureCommandPattern.test(run.command.replace(/^cd \S+ && /, ""))) continue;
    if (outwardCommandPattern.test(commandFamily(run.command))) continue;
    const existing = byCommand.get(run.command);
    if (existing) existing.times += 1;
    else byCommand.set(run.command, { command: run.command, times: 1, itemId: run.callItemId });
  }
  return [...byCommand.values()].sort((a, b) => b.times - a.times).slice(0, 10);
}

/** A failed command followed later by a success of the same command family. */
function failuresAndFixes(runs: readonly CommandRun[]): Array<{ failed: CommandRun; fixed: CommandRun }> {
  const pairs: Array<{ failed: CommandRun; fixed: CommandRun }> = [];
  const seen = new Set<string>();
  for (const [index, run] of runs.entries()) {
    if (run.outcome !== "failed") continue;
    const family = commandFamily(run.command);
    if (seen.has(family)) continue;
    const fixed = runs
      .slice(index + 1)
      .find((later) => later.outcome === "succeeded" && commandFamily(later.command) === family);
    if (fixed) {
      seen.add(family);
      pairs.push({ failed: run, fixed });
    }
  }
  return pairs.slice(0, 8);
}

function facts(found: {
  preferences: Evidence[];
  decisions: Evidence[];
  projectFacts: Evidence[];
  procedures: Procedure[];
  fixes: Array<{ failed: CommandRun; fixed: CommandRun }>;
}): ExtractedFact[] {
  const out: ExtractedFact[] = [
    ...found.preferences.map((p) => ({
      content: p.text,
      type: "preference" as const,
      confidence: 0.8,
      evidence: [p.itemId],
    })),
    ...found.decisions.map((d) => ({
      content: d.text,
      type: "decision" as const,
      confidence: 0.75,
      evidence: [d.itemId],
    })),
    ...found.projectFacts.map((f) => ({
      content: f.text,
      type: "fact" as const,
      // The user said so; a change ("is now", "we moved to") also says the value is the current one.
      confidence: f.change ? 0.85 : 0.8,
      evidence: [f.itemId],
    })),
    ...found.procedures.slice(0, 5).map((p) => ({
      content: procedureFact(p),
      type: "procedural" as const,
      confidence: p.times > 1 ? 0.8 : 0.7,
      evidence: [p.itemId],
    })),
    ...found.fixes.map((f) => ({
      content: fixFact(f),
      type: "fact" as const,
      confidence: 0.7,
      evidence: [f.failed.callItemId, f.fixed.callItemId],
    })),
  ];
  return out.filter((fact) => fact.content.length >= 10).slice(0, 20);
}

const procedureFact = (p: Procedure) => `Command that worked: \`${p.command}\``;

const fixFact = (f: { failed: CommandRun; fixed: CommandRun }) =>
  `\`${f.failed.command}\` failed with "${f.failed.errorLine ?? "an error"}"; \`${f.fixed.command}\` later succeeded.`;

/** The shapes of the command facts above, as SQL LIKE patterns (for finding them in the store). */
export const COMMAND_FACT_PATTERNS = ["Command that worked: `%`", "`%` failed with %; `%` later succeeded."];

/** What the extractor reads from a session's commands now: every run, and the facts it gives. */
export interface CommandReading {
  runs: CommandRun[];
  /** "Command that worked" facts by command, uncapped. */
  procedures: Map<string, string>;
  /** Failure-and-fix facts by the failed command. */
  fixes: Map<string, string>;
}

export function commandReading(session: SessionRecord, items: Iterable<ItemRecord>): CommandReading {
  const runs = commandRuns(items, session.cwd);
  return {
    runs,
    procedures: new Map(workedProcedures(runs).map((p) => [p.command, procedureFact(p)])),
    fixes: new Map(failuresAndFixes(runs).map((f) => [f.failed.command, fixFact(f)])),
  };
}

function entities(session: SessionRecord, procedures: Procedure[], files: Array<{ path: string }>): EntityTriple[] {
  const project =
    session.projectKey
      ?.replace(/^(?:git|root|path):/, "")
      .split("/")
      .at(-1) ??
    session.cwd ??
    "project";
  const triples: EntityTriple[] = [
    ...procedures.slice(0, 5).map((p) => ({
      source: project,
      relationship: "uses command",
      target: commandFamily(p.command),
      confidence: 0.7,
    })),
    ...files.slice(0, 5).map((f) => ({ source: project, relationship: "has file", target: f.path, confidence: 0.6 })),
  ];
  return triples.slice(0, 50);
}

/** The content words of a request, in order: what a slug names. */
function taskWords(text: string): string[] {
  return (text.toLowerCase().match(/[a-z][a-z0-9_-]{1,}/g) ?? []).filter(isTopicWord);
}

function slug(text: string): string | null {
  const value = text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .split("-")
    .slice(0, 6)
    .join("-");
  return value.length > 0 ? value.slice(0, 60) : null;
}
