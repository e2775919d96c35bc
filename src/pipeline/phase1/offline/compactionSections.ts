import { pointsToTranscript } from "./preferences.js";
import { withoutEmphasis } from "./sentences.js";

/**
 * What a section of a compaction summary holds, told by its heading: errors met and how they were
 * fixed, decisions, work still open, the state reached (what is done), commands, and facts about the
 * project. Sections that retell the
 * conversation (an analysis, a list of files with their code, the user's messages restated by the
 * agent) are not mined: the session's own items say that with better evidence.
 */
export type CompactionKind = "fix" | "decision" | "open" | "state" | "command" | "fact";

export interface CompactionEntry {
  kind: CompactionKind;
  text: string;
}

/**
 * Heading words, in the order they are tried: "Errors and fixes" is a fix section, "Pending tasks" and
 * "Next steps" open work, "Key technical concepts" facts. These are the section names agents' compaction
 * templates use (Claude Code's numbered sections, pi's and oh-my-pi's Markdown checkpoints, Codex's
 * handoff summary), matched as words, so a summary in another agent's wording is read as well.
 */
const KIND_OF_HEADING: ReadonlyArray<[CompactionKind | "skip", RegExp]> = [
  ["skip", /\b(?:analysis|files?|code sections?|user(?:'s)? messages|chronolog\w*|transcripts?)\b/i],
  [
    "fix",
    /\b(?:errors?|fix(?:es|ed)?|problems?|bugs?|pitfalls?|gotchas?|issues? (?:found|hit|met)|lessons?|troubleshoot\w*|workarounds?)\b/i,
  ],
  ["decision", /\b(?:decisions?|decided|choices|design|approach|trade-?offs?)\b/i],
  [
    "open",
    /\b(?:pending|next|to[- ]?dos?|remaining|open|unfinished|unresolved|blockers?|blocked|current work|in progress|left to do|follow-?ups?)\b/i,
  ],
  // What was done and where things stand: the state the next session starts from, not work to do.
  ["state", /\b(?:completed|done|progress|status|state|accomplished|finished)\b/i],
  ["command", /\b(?:commands?|how to (?:run|build|test)|scripts?|workflow|procedures?)\b/i],
  [
    "fact",
    /\b(?:facts?|concepts?|knowledge|context|architecture|constraints?|conventions?|important|notes?|environment|setup|testing|tests|api|branch|repository|project|findings?|learn\w*|key|references?|preferences?)\b/i,
  ],
];

/** Words that mark an entry as still unsolved ("Unsolved/Blocking: ...", "not yet fixed"). */
const UNSOLVED =
  /\b(?:unsolved|unresolved|blocking|blocker|still (?:fails|failing|broken|open)|not (?:yet )?(?:fixed|solved|resolved))\b/i;

/** A section heading: a Markdown heading, a bold line, or a short label line ending in a colon ("4. Errors and fixes:"). */
const MARKDOWN_HEADING = /^(#{1,6})\s+(.+?)\s*#*$/;
const LABEL_HEADING = /^(?:\d{1,2}[.)]\s+)?(?:\*\*)?([A-Z][^:.!?]{2,60}?)(?:\*\*)?:(?:\*\*)?$/;
const BOLD_HEADING = /^\*\*([^*]{3,60})\*\*:?$/;
const BULLET = /^(\s*)(?:[-*+\u2022]|\d{1,3}[.)])\s+(.*)$/;

/** Per entry, per section, and characters per summary: a summary is curated, but it can be 15 KB. */
const ENTRY_CHARS = 280;
const SECTION_ENTRIES = 6;
const SUMMARY_CHARS = 3_000;

interface Section {
  kind: CompactionKind | "skip" | null;
  level: number;
  /** The heading's words when short enough to name a paragraph under it. */
  title?: string;
}

/**
 * The entries of a compaction summary's sections, bounded: each top-level bullet or paragraph of a
 * classified section is one entry, with the first lines nested under it; a sub-heading inside a
 * classified section (a step's own heading) is one entry, its title with its first lines.
 * The preamble before the first heading (the harness saying that the summary stands in for an earlier
 * conversation) is boilerplate and is never an entry, nor is a code block, a table, or a line pointing
 * at a transcript file.
 */
export function compactionEntries(summary: string): CompactionEntry[] {
  const sectioned = sectionEntries(summary);
  return sectioned.length > 0 ? sectioned : proseEntries(summary);
}

/** A sentence about the summary or the conversation itself rather than the work (the harness's framing). */
const META_SENTENCE =
  /\b(?:this|the|a|our) (?:previous |earlier |prior )?(?:session|conversation|summary|context window)\b|\bran out of context\b|\bsummary below\b/i;

/**
 * A summary without sections (plain prose, as some agents write their handoff): its paragraphs and
 * bullets, each a fact, except the sentences that speak about the summary or the conversation.
 */
function proseEntries(summary: string): CompactionEntry[] {
  const entries: CompactionEntry[] = [];
  for (const block of summary.replace(/```[\s\S]*?```/g, " ").split(/\n\s*\n|\n(?=\s*(?:[-*+\u2022]|\d{1,3}[.)])\s)/)) {
    const text = block
      .split(/(?<=[.!?])\s+/)
      .filter((sentence) => !META_SENTENCE.test(sentence) && !pointsToTranscript(sentence))
      .join(" ")
      .replace(/^\s*(?:[-*+\u2022]|\d{1,3}[.)])\s+/, "");
    const entry = clip(stripMarkup(text));
    if (entry.length >= 12 && !entries.some((e) => e.text === entry)) entries.push({ kind: "fact", text: entry });
    if (entries.length >= SECTION_ENTRIES) break;
  }
  return entries;
}

function sectionEntries(summary: string): CompactionEntry[] {
  const entries: CompactionEntry[] = [];
  const perSection = new Map<Section, number>();
  const stack: Section[] = [];
  let current = null as Entry | null;
  let inCode = false;
  let first = true;

  const flush = () => {
    if (!current) return;
    const { section, parts, mode } = current;
    current = null;
    if (section.kind === null || section.kind === "skip") return;
    const text = clip(parts.join(" "));
    const count = perSection.get(section) ?? 0;
    if (text.length < 12 || count >= SECTION_ENTRIES) return;
    if (entries.some((entry) => entry.text === text)) return;
    perSection.set(section, count + 1);
    // A paragraph under a short heading says what it is only with it ("Branch: `refactor`").
    const titled = mode === "paragraph" && section.title && count === 0 ? `${section.title}: ${text}` : text;
    // An error the summary marks as not solved is open work, whatever section lists it.
    const kind = section.kind === "fix" && UNSOLVED.test(titled) ? "open" : section.kind;
    entries.push({ kind, text: clip(titled) });
  };
  const start = (section: Section, mode: Entry["mode"], text: string, indent = 0) => {
    flush();
    current = { section, mode, indent, parts: [text] };
  };

  for (const raw of summary.split("\n")) {
    const line = raw.replace(/\s+$/, "");
    if (/^\s*```/.test(line)) {
      inCode = !inCode;
      continue;
    }
    const trimmed = line.trim();
    if (inCode) continue;
    if (trimmed === "") {
      // A blank line ends a paragraph; a bullet's nested lines or a sub-heading's may follow one.
      if (current?.mode === "paragraph") flush();
      continue;
    }
    const heading = headingOf(trimmed, line, first);
    first = false;
    if (heading) {
      flush();
      while (stack.length > 0 && (stack.at(-1)?.level ?? 0) >= heading.level) stack.pop();
      const parent = stack.at(-1);
      // Inside a section that is not mined (an analysis), its own sub-headings are not mined either.
      const own = parent?.kind === "skip" ? "skip" : heading.title === null ? null : kindOf(heading.title);
      const title =
        heading.title !== null && heading.title.split(/\s+/).length <= 3 ? stripMarkup(heading.title) : undefined;
      const section: Section = { kind: own ?? parent?.kind ?? null, level: heading.level, ...(title ? { title } : {}) };
      stack.push(section);
      // A sub-heading under a classified section is one of its entries ("### WP15: Create InteractiveMode").
      if (own === null && parent && heading.markdown && heading.title !== null) {
        start(parent, "heading", `${stripMarkup(heading.title)}:`);
      }
      continue;
    }
    const section = current?.mode === "heading" ? current.section : stack.at(-1);
    if (!section || section.kind === null || section.kind === "skip") continue;
    if (trimmed.startsWith("|") || pointsToTranscript(trimmed)) continue;
    const bullet = BULLET.exec(line);
    const entry: Entry | null = current;
    const text = stripMarkup(bullet ? bullet[2]! : trimmed);
    const continues =
      entry !== null &&
      (entry.mode === "heading" ||
        (bullet
          ? entry.mode === "bullet" && bullet[1]!.length > entry.indent
          : entry.mode === "paragraph" || /^\s/.test(raw)));
    if (continues) {
      // A few nested lines say enough; the rest of a long list under one entry is detail.
      if (entry.parts.length < 4) entry.parts.push(text);
      continue;
    }
    // A paragraph that introduces a list ("The uncommitted files are:") takes the list as its body.
    start(
      section,
      bullet ? "bullet" : text.endsWith(":") ? "heading" : "paragraph",
      text,
      bullet ? bullet[1]!.length : 0,
    );
  }
  flush();
  return withinBudget(entries);
}

/**
 * The entries a summary gives, within its character budget: taken in rounds, each round one more entry
 * of every kind in the order a next session needs them (fixes, open work, decisions, commands, facts),
 * so a summary long on errors still gives its open work and its facts. Returned in document order.
 */
function withinBudget(entries: CompactionEntry[]): CompactionEntry[] {
  const byKind = new Map<CompactionKind, Array<{ entry: CompactionEntry; index: number }>>();
  entries.forEach((entry, index) => {
    byKind.set(entry.kind, [...(byKind.get(entry.kind) ?? []), { entry, index }]);
  });
  const chosen: Array<{ entry: CompactionEntry; index: number }> = [];
  let chars = 0;
  for (let round = 0; round < SECTION_ENTRIES; round++) {
    for (const kind of PRIORITY) {
      const next = byKind.get(kind)?.[round];
      if (!next || chars + next.entry.text.length > SUMMARY_CHARS) continue;
      chosen.push(next);
      chars += next.entry.text.length;
    }
  }
  return chosen.sort((a, b) => a.index - b.index).map(({ entry }) => entry);
}

const PRIORITY: readonly CompactionKind[] = ["fix", "open", "decision", "state", "command", "fact"];

interface Entry {
  section: Section;
  mode: "bullet" | "paragraph" | "heading";
  indent: number;
  parts: string[];
}

/**
 * A heading and its level. A summary's first line, when a level-1 Markdown heading, is its title ("# Context
 * Checkpoint: ...") and names no section. Label headings: a plain "Summary:" is outermost, a numbered
 * "4. Errors and fixes:" below it, a bold numbered "6. **Remaining tasks**:" an item inside one.
 */
function headingOf(
  trimmed: string,
  line: string,
  first: boolean,
): { title: string | null; level: number; markdown: boolean } | undefined {
  const markdown = MARKDOWN_HEADING.exec(trimmed);
  if (markdown) {
    const level = markdown[1]!.length;
    return { title: first && level === 1 ? null : markdown[2]!, level, markdown: true };
  }
  // Label and bold headings stand at the left margin; an indented "Fixed by:" is part of an entry.
  if (/^\s/.test(line)) return undefined;
  const label = LABEL_HEADING.exec(trimmed) ?? BOLD_HEADING.exec(trimmed);
  if (!label || label[1]!.split(/\s+/).length > 8) return undefined;
  const numbered = /^\d/.test(trimmed);
  const bold = trimmed.includes("**");
  return { title: label[1]!, level: 10 + (numbered ? 1 : 0) + (bold ? 1 : 0), markdown: false };
}

function kindOf(title: string): CompactionKind | "skip" | null {
  for (const [kind, pattern] of KIND_OF_HEADING) if (pattern.test(title)) return kind;
  return null;
}

function stripMarkup(text: string): string {
  return withoutEmphasis(text)
    .replace(/^\[[ xX]\]\s+/, "")
    .trim();
}

function clip(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= ENTRY_CHARS ? flat : `${flat.slice(0, ENTRY_CHARS - 1).trimEnd()}…`;
}
