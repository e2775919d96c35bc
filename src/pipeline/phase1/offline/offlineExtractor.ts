import type { ItemRecord, SessionRecord } from "../../../collection/types.js";
import { isTopicWord } from "../../../text/stopWords.js";
import type { EntityTriple, ExtractedFact, Stage1Extraction } from "../types.js";
import { type CommandRun, commandFamily, commandRuns } from "./commands.js";
import { filesTouched } from "./filesTouched.js";
import { outwardCommandPattern, procedureCommandPattern } from "./patterns.js";
import { isPreference } from "./preferences.js";
import { headline } from "./sentences.js";
import { isStatedDecision } from "./statedDecision.js";
import { statedFacts } from "./statedFacts.js";
import { ownSentences } from "./userStatements.js";

interface Evidence {
  text: string;
  itemId: number;
  /** For a stated fact: whether it states a change, which makes it explicitly the current value. */
  change?: boolean;
}

/** What a session says, gathered once; the summary, the raw memory and the facts are written from it. */
interface SessionEvidence {
  mainTask: string;
  tasks: Evidence[];
  preferences: Evidence[];
  decisions: Evidence[];
  /** What the user stated about the project: how it is set up, or how that changed. */
  projectFacts: Evidence[];
  runs: CommandRun[];
  procedures: ReturnType<typeof workedProcedures>;
  fixes: ReturnType<typeof failuresAndFixes>;
  files: ReturnType<typeof filesTouched>;
  compactions: string[];
  outcome: ItemRecord | undefined;
  keywords: string[];
}

/**
 * The deterministic extractor used when no model is configured: it reads what the session itself
 * says (requests, durable preferences, decisions, commands that worked, failures and their fixes,
 * files edited) and writes the same stage-1 shape a model would. Returns null when the session holds
 * nothing a future session could use.
 */
export function extractOffline(session: SessionRecord, items: readonly ItemRecord[]): Stage1Extraction | null {
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

function gatherEvidence(session: SessionRecord, items: readonly ItemRecord[]): SessionEvidence | null {
  const userItems = items.filter((item) => item.role === "user" && item.text.trim().length > 0);
  const first = userItems[0];
  if (!first) return null;
  const tasks = userItems
    .map((item) => ({ text: headline(item.text), itemId: item.id }))
    .filter((t) => t.text.length >= 8);
  // Only the user's own words become preferences, decisions and facts. An assistant turn is the
  // agent's reply: its acknowledgements ("Understood, switching to pnpm.", "Got it, I'll use Vitest")
  // echo or anticipate the user, and its reports ("the config now includes ...") are its own claims
  // about work in progress; kept, they would turn a courtesy or a guess into a standing instruction.
  // What the agent did is kept where the session shows the result: commands, by the outcome their
  // tool results report, and files, by its edit calls.
  // Past a cap, the latest statements are kept: what the user said last in a session is its most
  // current word ("the API now listens on 8080" after a dozen other facts must not give way to them).
  const statements = userItems.flatMap((item) => ownSentences(item.text).map((text) => ({ text, itemId: item.id })));
  const preferences = dedupe(statements.filter((s) => isPreference(s.text))).slice(-12);
  const decisions = dedupe(statements.filter((s) => isStatedDecision(s.text))).slice(-10);
  const projectFacts = dedupe(
    statements.flatMap((s) => {
      if (isPreference(s.text) || isStatedDecision(s.text)) return [];
      return statedFacts(s.text).map((fact) => ({ text: fact.text, itemId: s.itemId, change: fact.change }));
    }),
  ).slice(-12);
  const runs = commandRuns(items, session.cwd);
  return {
    mainTask: tasks[0]?.text ?? headline(first.text),
    tasks,
    preferences,
    decisions,
    projectFacts,
    runs,
    procedures: workedProcedures(runs),
    fixes: failuresAndFixes(runs),
    files: filesTouched(items, session.cwd).slice(0, 10),
    compactions: items.filter((item) => item.role === "compaction").map((item) => headline(item.text, 400)),
    outcome: lastAssistant(items),
    keywords: topKeywords(userItems.map((item) => item.text).join("\n"), 8),
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

function dedupe(entries: Evidence[]): Evidence[] {
  const seen = new Set<string>();
  return entries.filter((entry) => {
    const key = entry.text.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function lastAssistant(items: readonly ItemRecord[]): ItemRecord | undefined {
  return [...items].reverse().find((item) => item.role === "assistant" && item.text.trim().length > 20);
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

export function commandReading(session: SessionRecord, items: readonly ItemRecord[]): CommandReading {
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

function topKeywords(text: string, count: number): string[] {
  const counts = new Map<string, number>();
  for (const word of text.toLowerCase().match(/[a-z][a-z0-9_-]{2,}/g) ?? []) {
    if (!isTopicWord(word)) continue;
    counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  return [...counts]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, count)
    .map(([word]) => word);
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
