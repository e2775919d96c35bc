import { existsSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../../util/atomicWrite.js";
import { escapeRegExp } from "../../util/escapeRegExp.js";
import {
  commandsIn,
  containsCommand,
  replacedMark,
  type StaleMatcher,
  type StaleStatement,
  stripDoubtMarks,
} from "../../workspace/staleStatements.js";
import { commandFamily } from "../phase1/offline/commands.js";

/**
 * The check after any consolidator (offline, model or agent) and before publishing: a model may
 * ignore the instruction not to write a replaced fact as current, so MEMORY.md and memory_summary.md
 * are revised deterministically (a sentence stating a stale memory is marked as replaced, or removed
 * when the memory was withdrawn), and every skill is checked for superseded commands. Returns what
 * was changed, one line each, for the run report.
 */
export function verifyCurrent(dir: string, matcher: StaleMatcher, live?: string): string[] {
  if (matcher.size === 0) return [];
  const notes = reviseHandbook(dir, matcher);
  const skills = join(dir, "skills");
  if (existsSync(skills)) {
    for (const name of readdirSync(skills).sort()) notes.push(...reviseSkill(skills, name, matcher));
  }
  if (live) notes.push(...leftOut(join(live, "skills"), skills, matcher));
  return notes;
}

/**
 * MEMORY.md and memory_summary.md of `dir` with every sentence that states a stale memory marked as
 * replaced (or removed when withdrawn); one note per change. Also run on the staging copy before an
 * agent edits it, so the handbook it starts from already reads the old facts as history.
 */
export function reviseHandbook(dir: string, matcher: StaleMatcher): string[] {
  if (matcher.size === 0) return [];
  return rewriteHandbook(dir, (file, text) => {
    const revised = matcher.revise(text);
    const notes = revised.hits.map(
      (hit) => `${file}: ${hit.action} "${short(hit.sentence)}" ${replacedMark(hit.stale)}`,
    );
    return { text: revised.text, notes };
  });
}

/** The handbook files a summary reader sees, in `dir` and in every published version. */
export const HANDBOOK = ["MEMORY.md", "memory_summary.md"] as const;

/** MEMORY.md and memory_summary.md of `dir` without doubt marks: a consolidator starts from what is decided. */
export function stripHandbookDoubts(dir: string): void {
  rewriteHandbook(dir, (_file, text) => ({ text: stripDoubtMarks(text), notes: [] }));
}

/**
 * MEMORY.md and memory_summary.md of `dir` with the doubt marks of the review flags open now, the
 * earlier ones taken out (a flag decided since leaves no mark); one note per sentence marked.
 * Skills are left alone: a doubt rewrites no command.
 */
export function markDoubts(dir: string, doubts: StaleMatcher): string[] {
  return rewriteHandbook(dir, (file, text) => {
    const revised = doubts.revise(stripDoubtMarks(text));
    const notes = revised.hits.map((hit) => `${file}: marked "${short(hit.sentence)}" ${replacedMark(hit.stale)}`);
    return { text: revised.text, notes };
  });
}

/** Each handbook file of `dir` that exists, read once, passed to `change`, written back when it changed. */
function rewriteHandbook(
  dir: string,
  change: (file: string, text: string) => { text: string; notes: string[] },
): string[] {
  const notes: string[] = [];
  for (const file of HANDBOOK) {
    const path = join(dir, file);
    if (!existsSync(path)) continue;
    const before = readFileSync(path, "utf8");
    const after = change(file, before);
    if (after.text !== before) writeFileAtomic(path, after.text);
    notes.push(...after.notes);
  }
  return notes;
}

/** A skill's steps: its text without the front matter. */
export function skillBody(text: string): string {
  return text.slice(/^---\n[\s\S]*?\n---\n?/.exec(text)?.[0].length ?? 0);
}

/** Skills of the published version the consolidator did not write again because they were stale. */
function leftOut(liveSkills: string, skills: string, matcher: StaleMatcher): string[] {
  if (!existsSync(liveSkills)) return [];
  return readdirSync(liveSkills)
    .sort()
    .flatMap((name) => {
      if (existsSync(join(skills, name))) return [];
      const text = readIfPresent(join(liveSkills, name, "SKILL.md"));
      const stale = text === undefined ? [] : matcher.revise(skillBody(text)).hits.map((hit) => hit.stale);
      return stale.length === 0 ? [] : [`skills/${name}: pruned, it was built on ${describe(stale)}`];
    });
}

function readIfPresent(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

/**
 * A skill built on a superseded command: rewritten with the command of the memory that replaced it
 * when that memory names one, otherwise the steps using it are removed, and a skill left without any
 * command is pruned. A skill whose name carries the old command's family is renamed, or pruned when a
 * skill of the new name exists already.
 */
function reviseSkill(skillsDir: string, name: string, matcher: StaleMatcher): string[] {
  const path = join(skillsDir, name, "SKILL.md");
  if (!existsSync(path)) return [];
  const text = readFileSync(path, "utf8");
  const front = /^---\n[\s\S]*?\n---\n?/.exec(text)?.[0] ?? "";
  const lines = text.slice(front.length).split("\n");
  const rewrites: Array<{ from: string; to: string; stale: StaleStatement }> = [];
  const dropped: StaleStatement[] = [];
  const kept: string[] = [];
  for (const line of lines) {
    const stale = matcher.revise(line).hits[0]?.stale;
    if (!stale) {
      kept.push(line);
      continue;
    }
    const next = commandsIn(stale.replacement ?? "")[0];
    const old = commandsIn(stale.statement).find((command) => containsCommand(line, command));
    if (next && old) {
      rewrites.push({ from: old, to: next, stale });
      kept.push(replaceCommand(line, old, next));
    } else dropped.push(stale);
  }
  if (rewrites.length === 0 && dropped.length === 0) return [];
  const body = kept.join("\n");
  if (commandsIn(body).length === 0) {
    rmSync(join(skillsDir, name), { recursive: true, force: true });
    return [`skills/${name}: pruned, it was built on ${describe([...dropped, ...rewrites.map((r) => r.stale)])}`];
  }
  let revised = `${front}${body}`;
  let folder = name;
  for (const { from, to } of rewrites) {
    revised = replaceCommand(revised, from, to);
    const [oldFamily, newFamily] = [commandFamily(from), commandFamily(to)];
    if (oldFamily === newFamily) continue;
    revised = replaceCommand(revised, oldFamily, newFamily);
    folder = folder.replace(slug(oldFamily), slug(newFamily));
  }
  if (folder !== name && existsSync(join(skillsDir, folder))) {
    rmSync(join(skillsDir, name), { recursive: true, force: true });
    return [
      `skills/${name}: pruned, it was built on ${describe(rewrites.map((r) => r.stale))}; skills/${folder} covers the new command`,
    ];
  }
  if (folder !== name) revised = revised.replace(/^name:.*$/m, `name: ${folder}`);
  writeFileAtomic(path, revised.endsWith("\n") ? revised : `${revised}\n`);
  if (folder !== name) renameSync(join(skillsDir, name), join(skillsDir, folder));
  return [
    ...rewrites.map(
      (r) =>
        `skills/${name}: rewritten${folder === name ? "" : ` as skills/${folder}`}: \`${r.from}\` -> \`${r.to}\` (replaced on ${day(r.stale.at)})`,
    ),
    ...dropped.map(
      (stale) => `skills/${folder}: removed a step built on "${short(stale.statement)}" ${replacedMark(stale)}`,
    ),
  ];
}

function replaceCommand(text: string, from: string, to: string): string {
  const escaped = escapeRegExp(from).replace(/ /g, "\\s+");
  return text.replace(new RegExp(`(?<![\\w./-])${escaped}(?![\\w/-])`, "gi"), () => to);
}

function describe(stale: readonly StaleStatement[]): string {
  const first = stale[0];
  if (!first) return "a stale memory";
  return `"${short(first.statement)}" ${replacedMark(first)}`;
}

function slug(family: string): string {
  return family.replace(/[^a-z0-9]+/gi, "-").toLowerCase();
}

function day(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

function short(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 120 ? `${flat.slice(0, 119)}…` : flat;
}
