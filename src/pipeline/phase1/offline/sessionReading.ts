import type { ItemRecord, SessionRecord } from "../../../collection/types.js";
import { isTopicWord } from "../../../text/stopWords.js";
import { type CommandRun, CommandRunReader, commandFamily } from "./commands.js";
import { type CompactionKind, compactionEntries } from "./compactionSections.js";
import { EditCounter } from "./filesTouched.js";
import { describeGitActions, gitActions } from "./gitActions.js";
import { procedureCommandPattern, stoppedByUserPattern } from "./patterns.js";
import { isPreference } from "./preferences.js";
import { headline } from "./sentences.js";
import { isStatedDecision } from "./statedDecision.js";
import { statedFacts } from "./statedFacts.js";
import { AnswerReader } from "./userAnswers.js";
import { ownSentences } from "./userStatements.js";
import { correctionOf, isHarnessText } from "./userTurns.js";

export interface Evidence {
  text: string;
  itemId: number;
  /** For a stated fact: whether it states a change, which makes it explicitly the current value. */
  change?: boolean;
}

/** What the offline extractor takes from a session; the summary, raw memory and facts are written from it. */
export interface SessionReading {
  /** The headline of the user's first message; empty when the session has none beside a compaction summary. */
  firstRequest: string;
  /** The user's requests, in order, as far as the extractor names them (the first few). */
  tasks: Evidence[];
  preferences: Evidence[];
  decisions: Evidence[];
  /** The user's answers to the agent's questions (a question tool's result): choices, in the user's options. */
  answers: Evidence[];
  /** What the user stated about the project: how it is set up, or how that changed. */
  projectFacts: Evidence[];
  runs: CommandRun[];
  /** The files the agent wrote (its refused or failed writes left out), most edited first. */
  files: Array<{ path: string; edits: number }>;
  /** Writes the user refused or that failed. */
  refusedWrites: number;
  /** Item id of the result of the agent's last accepted write (0 when none). */
  lastWrite: number;
  /** The sections mined from the session's compaction summaries (the latest kept past the cap). */
  compactions: Array<Evidence & { kind: CompactionKind }>;
  /** The user's corrections of the agent, quoted. */
  corrections: Evidence[];
  /** The agent's last message of the last turn it completed (no tool call after it in its turn). */
  outcome: ItemRecord | undefined;
  /**
   * What the agent wrote is confirmed enough to report: after its last write, a check passed (a build,
   * test or lint command that worked) or the user moved on with a new message.
   */
  changeConfirmed: boolean;
  /** The session stopped mid-work: the last turn has no final answer. Says what was last asked and where it stopped. */
  openWork: (Evidence & { request: string }) | null;
  keywords: string[];
}

/** Requests the summary and raw memory name (the first and up to seven follow-ups). */
const TASKS_KEPT = 8;

/**
 * Reads a session one item at a time, in order, keeping only what the extractor writes from: a few
 * requests, the latest distinct preferences, decisions, facts and corrections, the user's answers, each
 * shell command with a short reading of its result, counts per accepted write and per word, the entries
 * of its compaction summaries, and where its turns ended. No item's text is held past its turn, so the
 * memory it takes does not grow with the session's bytes. Null when the user said nothing and no
 * compaction summary says what came before.
 */
export function readSession(session: SessionRecord, items: Iterable<ItemRecord>): SessionReading | null {
  let firstRequest: string | undefined;
  const tasks: Evidence[] = [];
  // Only the user's own words become preferences, decisions and facts. An assistant turn is the
  // agent's reply: its acknowledgements ("Understood, switching to pnpm.", "Got it, I'll use Vitest")
  // echo or anticipate the user, and its reports ("the config now includes ...") are its own claims
  // about work in progress; kept, they would turn a courtesy or a guess into a standing instruction.
  // What the agent did is kept where the session shows the result: commands, by the outcome their
  // tool results report, and files, by the edit calls whose result accepted the write.
  // Past a cap, the latest statements are kept: what the user said last in a session is its most
  // current word ("the API now listens on 8080" after a dozen other facts must not give way to them).
  const preferences = new LatestDistinct(12);
  const decisions = new LatestDistinct(10);
  const projectFacts = new LatestDistinct(12);
  // Strong corrections (a prohibition, a refusal, an undo) are kept apart so that a long session's many
  // "should be ..." remarks do not push them out.
  const strongCorrections = new LatestDistinct(STRONG_CORRECTIONS_KEPT);
  const corrections = new LatestDistinct(CORRECTIONS_KEPT);
  const compactions = new LatestDistinct(COMPACTION_ENTRIES_KEPT);
  const commands = new CommandRunReader(session.cwd);
  const edits = new EditCounter(session.cwd);
  const answers = new AnswerReader();
  const words = new Map<string, number>();
  const turn = new TurnTracker();
  let lastRequest: Evidence | undefined;
  for (const item of items) {
    commands.add(item);
    edits.add(item);
    answers.add(item);
    turn.add(item);
    if (item.role === "compaction") {
      for (const entry of compactionEntries(item.text)) compactions.add({ ...entry, itemId: item.id });
      continue;
    }
    if (item.role !== "user" || isHarnessText(item.text)) continue;
    const afterStep = turn.userSpeaks(item);
    firstRequest ??= headline(item.text);
    const task = { text: headline(item.text), itemId: item.id };
    lastRequest = task;
    if (task.text.length >= 8 && tasks.length < TASKS_KEPT) tasks.push(task);
    // A correction answers something the agent did: the session's first message cannot be one.
    const correction = turn.agentActed ? correctionOf(item.text, afterStep) : null;
    for (const text of ownSentences(item.text)) {
      const statement = { text, itemId: item.id };
      const preference = isPreference(text);
      const decision = isStatedDecision(text);
      if (preference) preferences.add(statement);
      if (decision) decisions.add(statement);
      if (preference || decision) continue;
      for (const fact of statedFacts(text)) projectFacts.add({ text: fact.text, itemId: item.id, change: fact.change });
    }
    // A correction already kept as a standing rule or a decision is kept once, as that.
    const kept = (list: LatestDistinct) => list.entries.some((entry) => entry.itemId === item.id);
    if (correction && !kept(preferences) && !kept(decisions)) {
      (correction.strong ? strongCorrections : corrections).add({ text: correction.quote, itemId: item.id });
    }
    countWords(item.text, words);
  }
  // A session continued from a compaction summary may hold no request of its own ("continue" only):
  // its summary is still worth keeping.
  if (firstRequest === undefined && compactions.entries.length === 0) return null;
  edits.finish();
  const runs = commands.runs();
  const end = turn.finish();
  return {
    firstRequest: firstRequest ?? "",
    tasks,
    preferences: preferences.entries,
    decisions: decisions.entries,
    answers: answers.answers,
    projectFacts: projectFacts.entries,
    runs,
    files: edits.files().slice(0, 10),
    refusedWrites: edits.refused,
    lastWrite: edits.lastWrite,
    compactions: compactions.entries as Array<Evidence & { kind: CompactionKind }>,
    corrections: [...strongCorrections.entries, ...corrections.entries].sort((a, b) => a.itemId - b.itemId),
    outcome: end.outcome,
    changeConfirmed:
      edits.lastWrite > 0 && (turn.userAfter(edits.lastWrite) || checkPassedAfter(runs, edits.lastWrite)),
    openWork: openWorkOf(end, runs, lastRequest),
    keywords: topWords(words, 8),
  };
}

/**
 * Where the session left work unfinished: its last turn stopped mid-work, or its last check (a build,
 * test, lint, publish or deploy command) failed and nothing after it worked, whatever the agent said
 * last. Either way it names what the session did to the repository's history, the state the next
 * session starts from (a tag made before a release step failed).
 */
function openWorkOf(
  end: { stoppedAt: number | null; stoppedWhy: string },
  runs: readonly CommandRun[],
  lastRequest: Evidence | undefined,
): (Evidence & { request: string }) | null {
  if (!lastRequest) return null;
  const git = describeGitActions(gitActions(runs));
  const withGit = (text: string) => (git ? `${text}; before that it ${git}` : text);
  if (end.stoppedAt !== null)
    return { text: withGit(end.stoppedWhy), itemId: end.stoppedAt, request: lastRequest.text };
  const lastCheck = runs.findLast(
    (run) => !run.stopped && run.outcome !== "unknown" && procedureCommandPattern.test(commandFamily(run.command)),
  );
  if (lastCheck?.outcome !== "failed") return null;
  const why = lastCheck.errorLine ? `: "${headline(lastCheck.errorLine, 160)}"` : "";
  return {
    text: withGit(`its last check, \`${headline(lastCheck.command, 100)}\`, failed${why}, and nothing after it worked`),
    itemId: lastCheck.resultItemId ?? lastCheck.callItemId,
    request: lastRequest.text,
  };
}

/** Corrections a session keeps (the latest), and entries of its compaction summaries. */
const STRONG_CORRECTIONS_KEPT = 8;
const CORRECTIONS_KEPT = 4;
const COMPACTION_ENTRIES_KEPT = 24;

/** A build, test or lint command that worked after the item `after`. */
function checkPassedAfter(runs: readonly CommandRun[], after: number): boolean {
  return runs.some(
    (run) => run.callItemId > after && run.outcome === "succeeded" && procedureCommandPattern.test(run.command),
  );
}

/**
 * Follows the turns of a session: the agent's last message of each turn, whether a tool call came after
 * it (then the turn did not end with it), and the last step before the user spoke (refused, failed).
 * Keeps a few item ids, never a text.
 */
class TurnTracker {
  /** The agent did something (answered, called a tool) since the session began. */
  agentActed = false;
  private candidate: ItemRecord | undefined;
  private completed: ItemRecord | undefined;
  /** A tool call or result came after the candidate (then the turn did not end with it). */
  private toolAfter: number | null = null;
  private activitySinceUser = false;
  private lastStepStopped = false;
  private lastStepFailed = false;
  private lastUserId = 0;

  add(item: ItemRecord): void {
    if (item.role === "assistant" && item.text.trim().length > 20) {
      this.candidate = item;
      this.toolAfter = null;
      this.lastStepFailed = false;
      this.lastStepStopped = false;
    } else if (item.role === "tool_call" || item.role === "tool_result") {
      this.toolAfter = item.id;
      if (item.role === "tool_result") {
        const stopped = stoppedByUserPattern.test(item.text.slice(0, 2000));
        this.lastStepStopped ||= stopped;
        this.lastStepFailed = item.isError && !stopped;
      }
    } else {
      // The harness's note that the user stopped the agent ("[Request interrupted by user]") stops its step.
      if (item.role === "system") this.lastStepStopped ||= stoppedByUserPattern.test(item.text.slice(0, 200));
      return;
    }
    this.agentActed = true;
    this.activitySinceUser = true;
  }

  /**
   * A user message ends the agent's turn. Returns whether it answers a step the user refused or stopped.
   * A failed step is not enough: the message after one is most often the next instruction or the
   * information the agent lacked, and a correction among them says so in its own words.
   */
  userSpeaks(item: ItemRecord): boolean {
    const afterStep = this.lastStepStopped;
    if (this.candidate && this.toolAfter === null) this.completed = this.candidate;
    this.candidate = undefined;
    this.toolAfter = null;
    this.lastStepStopped = false;
    this.lastStepFailed = false;
    this.activitySinceUser = false;
    this.lastUserId = Math.max(this.lastUserId, item.id);
    return afterStep;
  }

  /** The user spoke after the item `id`. */
  userAfter(id: number): boolean {
    return this.lastUserId > id;
  }

  /**
   * The outcome is the last message of the last turn the agent completed. The last turn stopped mid-work
   * when the agent acted in it and its last item is a tool call or result, not a message.
   */
  finish(): { outcome: ItemRecord | undefined; stoppedAt: number | null; stoppedWhy: string } {
    if (this.candidate && this.toolAfter === null) return { outcome: this.candidate, stoppedAt: null, stoppedWhy: "" };
    if (!this.activitySinceUser || this.toolAfter === null)
      return { outcome: this.completed, stoppedAt: null, stoppedWhy: "" };
    const why = this.lastStepStopped
      ? "the user refused or stopped the agent's last step"
      : this.lastStepFailed
        ? "its last step failed"
        : "its last step has no answer after it";
    return { outcome: this.completed, stoppedAt: this.toolAfter, stoppedWhy: why };
  }
}

/**
 * The last `size` distinct entries (case-insensitively) by their first occurrence: a repeat neither
 * moves an entry nor brings back one that fell out. It remembers the keys of the entries it saw, which
 * are few (only sentences that state a preference, a decision or a fact).
 */
class LatestDistinct {
  readonly entries: Evidence[] = [];
  private readonly seen = new Set<string>();

  constructor(private readonly size: number) {}

  add(entry: Evidence): void {
    const key = entry.text.toLowerCase();
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.entries.push(entry);
    if (this.entries.length > this.size) this.entries.shift();
  }
}

/** Counts the topic words of one message (a message boundary never splits a word). */
function countWords(text: string, counts: Map<string, number>): void {
  for (const word of text.toLowerCase().match(/[a-z][a-z0-9_-]{2,}/g) ?? []) {
    if (!isTopicWord(word)) continue;
    counts.set(word, (counts.get(word) ?? 0) + 1);
  }
}

function topWords(counts: ReadonlyMap<string, number>, count: number): string[] {
  return [...counts]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, count)
    .map(([word]) => word);
}
