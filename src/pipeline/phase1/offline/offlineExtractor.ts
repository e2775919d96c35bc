import type { ItemRecord, SessionRecord } from "../../../collection/types.js";
import { isTopicWord } from "../../../text/stopWords.js";
import type { EntityTriple, ExtractedFact, Stage1Extraction } from "../types.js";
import { type CommandRun, commandFamily, commandRuns } from "./commands.js";
import type { CompactionKind } from "./compactionSections.js";
import { outwardCommandPattern, procedureCommandPattern } from "./patterns.js";
import { headline, reportDigest } from "./sentences.js";
import { type Evidence, readSession, type SessionReading } from "./sessionReading.js";

/** What a session says, gathered once; the summary, the raw memory and the facts are written from it. */
interface SessionEvidence extends Omit<SessionReading, "firstRequest"> {
  mainTask: string;
  procedures: ReturnType<typeof workedProcedures>;
  fixes: ReturnType<typeof failuresAndFixes>;
  failures: CommandRun[];
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
    facts: facts(evidence, session),
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
    failures: unfixedFailures(reading.runs),
  };
}

/**
 * The session in a few sentences, what matters first (MEMORY.md shows the opening of it): what was asked,
 * how it ended or where it stopped, what the user refused, then the follow-ups, commands and files.
 */
function summaryOf({
  mainTask,
  tasks,
  runs,
  files,
  refusedWrites,
  outcome,
  openWork,
  preferences,
}: SessionEvidence): string {
  const ran = runs.filter((run) => !run.stopped);
  const stopped = runs.filter((run) => run.stopped);
  return [
    mainTask
      ? `The user asked: "${mainTask}".`
      : "The session continues from a compaction summary, with no request of its own.",
    openWork ? `The session stopped mid-work: ${openWork.text}.` : "",
    stopped.length > 0
      ? `The user refused ${stopped.length} of the agent's commands (${stopped
          .slice(0, 2)
          .map((run) => `\`${run.command.slice(0, 60)}\``)
          .join(", ")}).`
      : "",
    outcome ? `It ended with: "${reportDigest(outcome.text, 200)}".` : "",
    tasks.length > 1
      ? `Follow-up requests: ${tasks
          .slice(1, 4)
          .map((t) => `"${t.text}"`)
          .join("; ")}.`
      : "",
    ran.length > 0
      ? `The agent ran ${ran.length} shell command${ran.length > 1 ? "s" : ""} (${ran.filter((r) => r.outcome === "failed").length} failed).`
      : "",
    files.length > 0
      ? `Files the agent wrote: ${files
          .slice(0, 4)
          .map((f) => f.path)
          .join(", ")}.`
      : "",
    refusedWrites > 0 ? `${refusedWrites} write(s) were refused or failed and changed nothing.` : "",
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
    openWork,
    preferences,
    corrections,
    decisions,
    projectFacts,
    procedures,
    fixes,
    failures,
    files,
    compactions,
    keywords,
  } = evidence;
  const change = changeFact(evidence, session);
  return [
    section("Task", [
      `${mainTask || "Continued from a compaction summary"} (${session.agent} session in ${session.cwd ?? "an unknown directory"})`,
      ...tasks.slice(1, 8).map((t) => `Then: ${t.text}`),
    ]),
    section("Outcome", outcome ? [reportDigest(outcome.text, OUTCOME_CHARS)] : []),
    // Phase 2 reads this section for the summary's open work: the stop here, then what the agent's own
    // compaction summary listed as pending.
    section("Open work", [
      ...(openWork ? [openWorkFact(openWork)] : []),
      ...compactions.filter((entry) => entry.kind === "open").map((entry) => entry.text),
    ]),
    section(
      "Preferences",
      preferences.map((p) => p.text),
    ),
    section(
      "Corrections by the user",
      corrections.map((c) => correctionFact(c)),
    ),
    section(
      "Decisions",
      [...decisions, ...evidence.answers].map((d) => d.text),
    ),
    section(
      "Project facts",
      projectFacts.map((f) => f.text),
    ),
    section(
      "Procedures",
      procedures.map((p) => `\`${p.command}\` worked${p.times > 1 ? ` (${p.times} times)` : ""}`),
    ),
    section("Failures and fixes", [
      ...fixes.map(
        (f) =>
          `\`${f.failed.command}\` failed (${f.failed.errorLine ?? "error"}); later \`${f.fixed.command}\` succeeded`,
      ),
      ...failures.map(failureFact),
    ]),
    section(
      "What changed (agent-reported)",
      change
        ? [
            change,
            ...(evidence.changeConfirmed && outcome
              ? [`The agent reported: "${reportDigest(outcome.text, 300)}"`]
              : []),
          ]
        : [],
    ),
    section(
      "Files written",
      files.map((f) => `${f.path} (${f.edits} edit${f.edits > 1 ? "s" : ""})`),
    ),
    section(
      "Earlier context (the agent's compaction summaries)",
      compactions.filter((entry) => entry.kind !== "open").map((entry) => compactionFact(entry).content),
    ),
    section("Keywords", keywords.length > 0 ? [keywords.join(", ")] : []),
  ]
    .filter(Boolean)
    .join("\n\n");
}

/** The agent's final report, digested: long enough for what it did and found, short of a retelling. */
const OUTCOME_CHARS = 600;

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

/**
 * A failed command followed later by a success of its family: one memory, the failure and what worked
 * (`cargo test --workspace` failed, `cd core && cargo test` worked; `pnpm test:e2e` refused a connection,
 * later passed). When the same command failed on the work itself (a test's red step before its green
 * one, a compile error fixed in the code), it is no pitfall: the failing line is a test runner's or a
 * compiler's verdict on the code.
 */
function failuresAndFixes(runs: readonly CommandRun[]): Array<{ failed: CommandRun; fixed: CommandRun }> {
  const pairs: Array<{ failed: CommandRun; fixed: CommandRun }> = [];
  const seen = new Set<string>();
  for (const [index, run] of runs.entries()) {
    if (run.outcome !== "failed") continue;
    const family = commandFamily(run.command);
    if (seen.has(family)) continue;
    const later = runs.slice(index + 1);
    const fixed = later.find((next) => next.outcome === "succeeded" && commandFamily(next.command) === family);
    if (fixed?.command === run.command && WORK_IN_PROGRESS.test(run.errorLine ?? "")) continue;
    if (fixed) {
      seen.add(family);
      pairs.push({ failed: run, fixed });
    }
  }
  return pairs.slice(0, 8);
}

/**
 * Commands that failed and never worked later in the session, when the failure says something about the
 * project or its environment: a build, test or lint command, or any command the environment refused
 * (not found, not permitted, a sandbox denial, a timeout). The latest failure of each family. A publish
 * or a push that failed is kept too: unlike one that worked, it is the state the next session starts in.
 */
function unfixedFailures(runs: readonly CommandRun[]): CommandRun[] {
  const byFamily = new Map<string, CommandRun>();
  for (const [index, run] of runs.entries()) {
    if (run.outcome !== "failed") continue;
    const family = commandFamily(run.command);
    const environment = ENVIRONMENT_FAILURE.test(run.errorLine ?? "");
    if (!environment && !procedureCommandPattern.test(run.command.replace(/^cd \S+ && /, ""))) continue;
    if (runs.slice(index + 1).some((next) => next.outcome === "succeeded" && commandFamily(next.command) === family)) {
      continue;
    }
    byFamily.delete(family);
    byFamily.set(family, run);
  }
  return [...byFamily.values()].slice(-4);
}

/** A failing line that judges the code being written: a failed test, a compile or type error. */
const WORK_IN_PROGRESS =
  /^(?:FAIL\b|[\u2717\u00d7\u2715]\s)|\b[1-9]\d* (?:failed|failing)\b|\berror(?:\[E\d+\]| TS\d+)|\bAssertionError\b|\bexpected\b.*\b(?:to|but)\b/i;

/** A failure the environment caused rather than the code: the command or a permission is missing, or time ran out. */
const ENVIRONMENT_FAILURE =
  /command not found|not recognized as|Operation not permitted|Permission denied|sandbox|timed out|panicked at/i;

function facts(found: SessionEvidence, session: SessionRecord): ExtractedFact[] {
  const change = changeFact(found, session);
  const out: ExtractedFact[] = [
    ...found.preferences.map((p) => ({
      content: p.text,
      type: "preference" as const,
      confidence: 0.8,
      evidence: [p.itemId],
    })),
    // A correction is the user's word on what the agent did, kept as said; below a stated habit, since
    // it may hold for the task at hand only.
    ...found.corrections.map((c) => ({
      content: correctionFact(c),
      type: "preference" as const,
      confidence: 0.7,
      evidence: [c.itemId],
    })),
    ...found.decisions.map((d) => ({
      content: d.text,
      type: "decision" as const,
      confidence: 0.75,
      evidence: [d.itemId],
    })),
    // The user's choice among the agent's options: the user's word, as firm as a stated decision.
    ...found.answers.map((a) => ({
      content: a.text,
      type: "decision" as const,
      confidence: 0.75,
      evidence: [a.itemId],
    })),
    ...found.projectFacts.map((f) => ({
      content: f.text,
      type: "fact" as const,
      // The user said so; a change ("is now", "we moved to") also says the value is the current one.
      confidence: f.change ? 0.85 : 0.8,
      evidence: [f.itemId],
    })),
    ...(found.openWork
      ? [
          {
            content: openWorkFact(found.openWork),
            type: "fact" as const,
            confidence: 0.7,
            evidence: [found.openWork.itemId],
          },
        ]
      : []),
    ...(change && found.lastWrite
      ? [{ content: change, type: "fact" as const, confidence: 0.7, evidence: changeEvidence(found) }]
      : []),
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
    ...found.failures.map((f) => ({
      content: failureFact(f),
      type: "fact" as const,
      confidence: 0.7,
      evidence: [f.callItemId],
    })),
    ...found.compactions.map(compactionFact),
  ];
  return out.filter((fact) => fact.content.length >= 10).slice(0, FACTS_KEPT);
}

/** Facts one session gives at most: its user's words first, then what its tools and summaries show. */
const FACTS_KEPT = 40;

/** A compaction summary's entry as a fact: the agent's curated account, below the user's own word. */
function compactionFact(entry: Evidence & { kind: CompactionKind }): ExtractedFact {
  const [type, label] = COMPACTION_FACT[entry.kind];
  return { content: `${label}${entry.text}`, type, confidence: 0.7, evidence: [entry.itemId] };
}

const COMPACTION_FACT: Record<CompactionKind, [ExtractedFact["type"], string]> = {
  fix: ["fact", "Error and fix: "],
  open: ["fact", "Open work (at the session's compaction): "],
  state: ["fact", "State (at the session's compaction): "],
  decision: ["decision", "Decision: "],
  command: ["procedural", "Command (from the session's summary): "],
  fact: ["fact", ""],
};

/**
 * A correction in the user's words, attributed rather than put in quotation marks: quoted, two
 * corrections would read as one statement ("The user corrected the agent: ...") whose quoted value
 * changed, and the later would replace the earlier.
 */
const correctionFact = (c: Evidence) => `The user corrected the agent, in their words: ${c.text.replace(/^"|"$/g, "")}`;

const openWorkFact = (open: { text: string; request: string }) =>
  `Open work: the session stopped before the agent finished "${headline(open.request, 160)}" (${open.text}).`;

const failureFact = (run: CommandRun) =>
  `\`${commandHead(run.command)}\` failed in this session and never worked after: "${run.errorLine ?? "an error"}".`;

/** A command as a memory names it: a here-document's body (`update_plan <<'PLAN' ...`) is its input, not the command. */
function commandHead(command: string): string {
  const head = command.replace(/\s*<<-?\s*['"]?\w+['"]?[\s\S]*$/, "").trim();
  return head.length > 0 ? head : command.slice(0, 80);
}

/** The last accepted write. */
function changeEvidence(found: SessionEvidence): number[] {
  return [found.lastWrite];
}

/**
 * What the agent changed, as it reported it: the files its accepted writes touched, and whether a check
 * passed after the last write or the user moved on. The agent's final report stays in the raw memory and
 * the session summary: quoted in a fact, its "X is now Y" would read as a change the user stated and
 * replace what the user said.
 */
function changeFact(found: SessionEvidence, session: SessionRecord): string | null {
  if (found.files.length === 0) return null;
  const files = found.files
    .slice(0, 5)
    .map((f) => f.path)
    .join(", ");
  const confirmed = found.changeConfirmed
    ? "a check passed or the user moved on after it"
    : "unconfirmed: no check passed and the user did not move on after it";
  return `Files the agent wrote (agent-reported, ${confirmed}): ${files}.${committedNote(found, session)}`;
}

/**
 * Whether the session committed what the agent wrote: a `git commit` that worked after the last write.
 * Without one, the next session should know the work may still sit uncommitted in the checkout.
 */
function committedNote(found: SessionEvidence, session: SessionRecord): string {
  const committed = found.runs.some(
    (run) => run.callItemId > found.lastWrite && run.outcome === "succeeded" && GIT_COMMIT.test(run.command),
  );
  if (committed) return " Committed by the session.";
  return ` Left uncommitted by the session${session.gitBranch ? ` (branch ${session.gitBranch})` : ""}.`;
}

const GIT_COMMIT = /(?:^|&&\s*|;\s*)git\s+(?:-C\s+\S+\s+)?commit\b/;

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
