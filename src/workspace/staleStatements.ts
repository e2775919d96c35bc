import { commandPattern, commandsIn, containsCommand } from "../text/commandSpans.js";
import { isNegated } from "../text/negation.js";
import { isContentWordOrName, namedNumbers } from "../text/numberedNames.js";
import { reportedOutcome } from "../text/outcomeWords.js";
import { aboutOtherOccasions, type ReportedOccasion, reportedOccasion } from "../text/reportedOccasion.js";
import { stem } from "../text/stem.js";
import { words } from "../text/tokenize.js";
import { toIso } from "../util/clock.js";
import { GLOBAL_WORKSPACE } from "./workspacePaths.js";

// Where verifyCurrent and other readers of stale statements have always found them.
export { commandsIn, containsCommand };

/**
 * A memory that is no longer true: superseded (it names what replaced it) or withdrawn (forgotten);
 * or, `doubted`, one that may no longer be true: a review flag waits on it against a newer live memory.
 */
export interface StaleStatement {
  /** The scope (project key or `global`) of the memory. */
  scope: string;
  /** What the memory said. */
  statement: string;
  /** The live memory that replaced it (or, doubted, may replace it); null when it was withdrawn without a successor. */
  replacement: string | null;
  /** When it stopped being current, or when the newer memory was said (epoch ms). */
  at: number;
  /** A person has not decided yet: the sentence is marked, never removed, and skills are not rewritten for it. */
  doubted?: true;
}

/** What happened to one piece of text that still stated a stale memory as current. */
export interface StaleHit {
  stale: StaleStatement;
  /** The sentence that stated it. */
  sentence: string;
  action: "marked" | "dropped";
}

/** A statement already marked by `replacedMark`: it no longer presents the old fact as current. */
const MARKED = /\((?:(?:replaced|withdrawn) on|may be out of date, under review: on) \d{4}-\d{2}-\d{2}\b/i;

/** A doubt mark as `replacedMark` writes it; the newer text in it holds no double quote. */
const DOUBT_MARK = / ?\(may be out of date, under review: on \d{4}-\d{2}-\d{2} a newer memory said "[^"\n]*"\)/g;

/**
 * The text without its doubt marks. A doubt lasts until a person decides, so published files do not
 * keep one: each writer and reader takes them out and marks again from the flags open now.
 */
export function stripDoubtMarks(text: string): string {
  return text.includes("may be out of date, under review") ? text.replace(DOUBT_MARK, "") : text;
}

/** A statement's words must be this fully present in a sentence for the sentence to state it. */
const COVERAGE = 0.8;
/** Fewer content words than this: only a sentence containing the whole statement states it. */
const MIN_STEMS = 3;

interface Prepared {
  stale: StaleStatement;
  stems: Set<string>;
  /** Its commands the replacement does not also name, as patterns. */
  staleCommands: RegExp[];
  /** All its commands, as patterns. */
  commands: RegExp[];
  negated: boolean;
  /** The numbers of its numbered names ("service 3"): a sentence about another number is about another thing. */
  names: string[];
  replacementStems: Set<string>;
  replacementCommands: RegExp[];
  normalized: string;
  /** The outcome it reports of what ran ("Command that worked", "... failed with ..."), if any. */
  outcome: string;
  /** What it reports of something that ran (commands, error), if it reports an outcome. */
  occasion: ReportedOccasion | undefined;
}

/**
 * Decides which sentences still state a stale memory as current. A sentence states one when it holds
 * one of its commands (a code span) that the replacement does not, or most of its content words
 * (at least 80%, more of them than of the replacement's), with the same polarity. Sentences already
 * marked as replaced are left alone.
 */
export class StaleMatcher {
  private readonly stale: readonly StaleStatement[];
  /** Each statement's content stems, for the index below. */
  private readonly statementStems: Set<string>[];
  /**
   * The rest of what a statement is compared by (its commands as patterns, polarity, numbered names,
   * the outcome it reports), made for the statements a sentence shares a word with, when it first does:
   * a store keeps every replaced statement, and an agent's session start revises a summary of a few
   * sentences, which share words with few of them.
   */
  private readonly prepared: (Prepared | undefined)[];
  /** Stem -> indexes of the statements holding it: a sentence is only compared with statements it shares a word with. */
  private readonly byStem = new Map<string, number[]>();
  private readonly stems = new StemCache();
  /** Per statement, the words a sentence shares with it (zeroed after each sentence). */
  private readonly shared: Uint16Array;

  constructor(stale: readonly StaleStatement[]) {
    this.stale = stale;
    this.statementStems = stale.map((entry) => this.stems.of(entry.statement));
    this.prepared = new Array<Prepared | undefined>(stale.length);
    this.shared = new Uint16Array(stale.length);
    this.statementStems.forEach((stems, index) => {
      for (const word of stems) {
        const list = this.byStem.get(word) ?? [];
        list.push(index);
        this.byStem.set(word, list);
      }
    });
  }

  get size(): number {
    return this.stale.length;
  }

  private entry(index: number): Prepared {
    const made = this.prepared[index];
    if (made) return made;
    const entry = this.stale[index]!;
    const replacement = entry.replacement ?? "";
    const stems = this.statementStems[index]!;
    const prepared: Prepared = {
      stale: entry,
      stems,
      staleCommands: commandsIn(entry.statement)
        .filter((command) => !containsCommand(replacement, command))
        .map(commandPattern),
      commands: commandsIn(entry.statement).map(commandPattern),
      negated: isNegated(entry.statement),
      names: namedNumbers(entry.statement),
      replacementStems: this.stems.of(replacement),
      replacementCommands: commandsIn(replacement).map(commandPattern),
      normalized: normalize(entry.statement),
      outcome: reportedOutcome(stems),
      occasion: reportedOccasion(entry.statement),
    };
    this.prepared[index] = prepared;
    return prepared;
  }

  /** The stale memory `sentence` presents as current, if any. */
  match(written: string): StaleStatement | undefined {
    if (this.stale.length === 0 || MARKED.test(written)) return undefined;
    const sentence = withoutReferences(written);
    const stems = this.stems.of(sentence);
    const shared = this.shared;
    let any = false;
    for (const word of stems) {
      for (const index of this.byStem.get(word) ?? []) {
        shared[index] = (shared[index] ?? 0) + 1;
        any = true;
      }
    }
    if (!any) return undefined;
    const negated = isNegated(sentence);
    const flat = normalize(sentence);
    let found: StaleStatement | undefined;
    // Newest first, as the list is ordered; most candidates fall short of the coverage before any closer look.
    for (let index = 0; index < shared.length; index++) {
      const count = shared[index] ?? 0;
      if (count === 0) continue;
      shared[index] = 0;
      if (found) continue;
      const statementStems = this.statementStems[index]!;
      const covered = count / statementStems.size >= (statementStems.size < MIN_STEMS ? 1 : COVERAGE);
      // Without a code span a statement has no command that could match alone: too few shared words end it here.
      if (!covered && !this.stale[index]!.statement.includes("`")) continue;
      const entry = this.entry(index);
      if (entry.staleCommands.length === 0 && !covered) continue;
      if (statesIt(entry, { sentence, stems, negated, flat })) found = entry.stale;
    }
    return found;
  }

  /**
   * The text with every sentence that states a stale memory as current marked ("(replaced on
   * 2026-06-10 by: ...)") when the memory has a successor, or removed when it was withdrawn. A line
   * left with nothing but list or heading syntax is removed too.
   */
  revise(text: string): { text: string; hits: StaleHit[] } {
    if (this.stale.length === 0) return { text, hits: [] };
    const hits: StaleHit[] = [];
    const lines: string[] = [];
    for (const line of text.split("\n")) {
      const revised = this.reviseLine(line, hits);
      if (revised !== undefined) lines.push(revised);
    }
    return { text: hits.length === 0 ? text : lines.join("\n"), hits };
  }

  private reviseLine(line: string, hits: StaleHit[]): string | undefined {
    // A list item's marker and the day a summary dates it with ("- 2026-05-01: ...") are not the statement.
    const prefix = /^\s*(?:[-*+]\s+|\d+[.)]\s+|#{1,6}\s+|>\s*)?(?:\d{4}-\d{2}-\d{2}:\s+)?/.exec(line)?.[0] ?? "";
    const body = line.slice(prefix.length);
    if (body.trim() === "" || MARKED.test(body)) return line;
    const split = splitSentences(body);
    // A statement of several sentences is stated by the line as a whole.
    const sentences = split.length > 1 && !split.some((sentence) => this.match(sentence)) ? [body] : split;
    let changed = false;
    const kept: string[] = [];
    for (const sentence of sentences) {
      const stale = this.match(sentence);
      if (!stale) {
        kept.push(sentence);
        continue;
      }
      changed = true;
      if (stale.replacement === null && !stale.doubted) {
        hits.push({ stale, sentence: sentence.trim(), action: "dropped" });
      } else {
        hits.push({ stale, sentence: sentence.trim(), action: "marked" });
        kept.push(`${sentence.trimEnd()} ${replacedMark(stale)}`);
      }
    }
    if (!changed) return line;
    const rest = kept.join(" ").trim();
    return rest === "" || /^[\s[\]().,;:`*_-]*$/.test(rest) ? undefined : `${prefix}${rest}`;
  }
}

/**
 * The stale statements as a workspace may show them: a replacement from another project is not shown
 * in this one (the global workspace is injected everywhere), so there such a statement is removed
 * rather than marked with what replaced it.
 */
export function staleAsSeenFrom(stale: readonly StaleStatement[], workspaceKey: string): StaleStatement[] {
  return stale.flatMap((entry) => {
    if (entry.scope === workspaceKey || entry.scope === GLOBAL_WORKSPACE || entry.replacement === null) return [entry];
    // A doubt is only ever a mark naming the newer memory; where that cannot be shown, nothing is said.
    return entry.doubted ? [] : [{ ...entry, replacement: null }];
  });
}

/**
 * The mark a stale statement carries: when it was replaced and by what (or that it was withdrawn), or,
 * doubted, that a newer memory said otherwise and a person has not decided.
 */
export function replacedMark(stale: StaleStatement): string {
  const day = (toIso(stale.at) ?? "").slice(0, 10);
  const flat = (text: string) => text.replace(/\s+/g, " ").trim();
  if (stale.doubted && stale.replacement !== null) {
    const said = flat(stale.replacement).replace(/"/g, "'");
    return `(may be out of date, under review: on ${day} a newer memory said "${said.length > 240 ? `${said.slice(0, 239)}…` : said}")`;
  }
  return stale.replacement === null ? `(withdrawn on ${day})` : `(replaced on ${day} by: ${flat(stale.replacement)})`;
}

/**
 * A sentence without the references it carries: a citation (`[rollout_summaries/2026-11-01-database_
 * runs_mysql.md]`) or a link's target names a file, and the words of its slug state nothing.
 */
function withoutReferences(sentence: string): string {
  return sentence.replace(/\]\([^)\s]*\)/g, "]").replace(/\[[^\]\s]*[/.][^\]\s]*\]/g, " ");
}

function statesIt(
  entry: Prepared,
  candidate: { sentence: string; stems: Set<string>; negated: boolean; flat: string },
): boolean {
  if (candidate.negated !== entry.negated) return false;
  // A report of another command or another error states something else, whatever words they share.
  if (entry.occasion && aboutOtherOccasions(reportedOccasion(candidate.sentence), entry.occasion)) return false;
  const namesNewCommand = entry.replacementCommands.some((pattern) => pattern.test(candidate.sentence));
  // Naming the command states the memory, unless the two report different outcomes of it: "`make`
  // failed with ..." does not state a withdrawn "Command that worked: `make`".
  const said = reportedOutcome(candidate.stems);
  const sameOutcome = entry.outcome === "" || said === "" || said === entry.outcome;
  if (!namesNewCommand && sameOutcome && entry.staleCommands.some((pattern) => pattern.test(candidate.sentence)))
    return true;
  // Backticked commands name what a statement is about: a sentence about other commands states
  // something else, however many words of a quoted error message the two share.
  const aboutOthers = entry.commands.length > 0 && commandsIn(candidate.sentence).length > 0;
  if (aboutOthers && !entry.commands.some((pattern) => pattern.test(candidate.sentence))) return false;
  if (!entry.names.every((name) => candidate.stems.has(name))) return false;
  const covered = share(entry.stems, candidate.stems);
  // A sentence at least as much about the replacement states the replacement (an edit that kept most words).
  if (covered <= share(entry.replacementStems, candidate.stems)) return false;
  if (entry.stems.size < MIN_STEMS)
    return entry.normalized !== "" && ` ${candidate.flat} `.includes(` ${entry.normalized} `);
  return covered >= COVERAGE;
}

/** Content stems of a text (the shared tokenizer and stemmer), each word stemmed once per matcher. */
class StemCache {
  private readonly cache = new Map<string, string>();

  of(text: string): Set<string> {
    const out = new Set<string>();
    const all = words(text);
    for (const [i, word] of all.entries()) {
      const base = word.endsWith("'s") ? word.slice(0, -2) : word.replace(/'/g, "");
      // "Service 3" and "Service 5" are two things: the lone digit that says which one is kept.
      if (!isContentWordOrName(all[i - 1], base)) continue;
      let stemmed = this.cache.get(base);
      if (stemmed === undefined) {
        stemmed = stem(base);
        this.cache.set(base, stemmed);
      }
      out.add(stemmed);
    }
    return out;
  }
}

function share(of: Set<string>, within: Set<string>): number {
  if (of.size === 0) return 0;
  let hit = 0;
  for (const stem of of) if (within.has(stem)) hit += 1;
  return hit / of.size;
}

function normalize(text: string): string {
  return words(text).join(" ");
}

/** Sentences of one line, each keeping its trailing punctuation. */
function splitSentences(text: string): string[] {
  return text.split(/(?<=[.!?])\s+(?=\S)/);
}
