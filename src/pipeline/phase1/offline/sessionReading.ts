import type { ItemRecord, SessionRecord } from "../../../collection/types.js";
import { isTopicWord } from "../../../text/stopWords.js";
import { type CommandRun, CommandRunReader } from "./commands.js";
import { EditCounter } from "./filesTouched.js";
import { isPreference } from "./preferences.js";
import { headline } from "./sentences.js";
import { isStatedDecision } from "./statedDecision.js";
import { statedFacts } from "./statedFacts.js";
import { ownSentences } from "./userStatements.js";

export interface Evidence {
  text: string;
  itemId: number;
  /** For a stated fact: whether it states a change, which makes it explicitly the current value. */
  change?: boolean;
}

/** What the offline extractor takes from a session; the summary, raw memory and facts are written from it. */
export interface SessionReading {
  /** The headline of the user's first message. */
  firstRequest: string;
  /** The user's requests, in order, as far as the extractor names them (the first few). */
  tasks: Evidence[];
  preferences: Evidence[];
  decisions: Evidence[];
  /** What the user stated about the project: how it is set up, or how that changed. */
  projectFacts: Evidence[];
  runs: CommandRun[];
  /** The files edited most, most first. */
  files: Array<{ path: string; edits: number }>;
  compactions: string[];
  /** The agent's last substantial answer. */
  outcome: ItemRecord | undefined;
  keywords: string[];
}

/** Requests the summary and raw memory name (the first and up to seven follow-ups). */
const TASKS_KEPT = 8;

/**
 * Reads a session one item at a time, in order, keeping only what the extractor writes from: a few
 * requests, the latest distinct preferences, decisions and facts, each shell command with a short
 * reading of its result, counts per edited file and per word, one answer. No item's text is held
 * past its turn, so the memory it takes does not grow with the session's bytes. Null when the user
 * said nothing.
 */
export function readSession(session: SessionRecord, items: Iterable<ItemRecord>): SessionReading | null {
  let firstRequest: string | undefined;
  const tasks: Evidence[] = [];
  // Only the user's own words become preferences, decisions and facts. An assistant turn is the
  // agent's reply: its acknowledgements ("Understood, switching to pnpm.", "Got it, I'll use Vitest")
  // echo or anticipate the user, and its reports ("the config now includes ...") are its own claims
  // about work in progress; kept, they would turn a courtesy or a guess into a standing instruction.
  // What the agent did is kept where the session shows the result: commands, by the outcome their
  // tool results report, and files, by its edit calls.
  // Past a cap, the latest statements are kept: what the user said last in a session is its most
  // current word ("the API now listens on 8080" after a dozen other facts must not give way to them).
  const preferences = new LatestDistinct(12);
  const decisions = new LatestDistinct(10);
  const projectFacts = new LatestDistinct(12);
  const commands = new CommandRunReader(session.cwd);
  const edits = new EditCounter(session.cwd);
  const compactions: string[] = [];
  const words = new Map<string, number>();
  let outcome: ItemRecord | undefined;
  for (const item of items) {
    commands.add(item);
    edits.add(item);
    if (item.role === "compaction") compactions.push(headline(item.text, 400));
    if (item.role === "assistant" && item.text.trim().length > 20) outcome = item;
    if (item.role !== "user" || item.text.trim().length === 0) continue;
    firstRequest ??= headline(item.text);
    const task = { text: headline(item.text), itemId: item.id };
    if (task.text.length >= 8 && tasks.length < TASKS_KEPT) tasks.push(task);
    for (const text of ownSentences(item.text)) {
      const statement = { text, itemId: item.id };
      const preference = isPreference(text);
      const decision = isStatedDecision(text);
      if (preference) preferences.add(statement);
      if (decision) decisions.add(statement);
      if (preference || decision) continue;
      for (const fact of statedFacts(text)) projectFacts.add({ text: fact.text, itemId: item.id, change: fact.change });
    }
    countWords(item.text, words);
  }
  if (firstRequest === undefined) return null;
  return {
    firstRequest,
    tasks,
    preferences: preferences.entries,
    decisions: decisions.entries,
    projectFacts: projectFacts.entries,
    runs: commands.runs(),
    files: edits.files().slice(0, 10),
    compactions,
    outcome,
    keywords: topWords(words, 8),
  };
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
