import type { ExtractedFact, Stage1Output } from "../../phase1/types.js";

export interface SupportedStatement {
  text: string;
  /** Sessions that stated it, most recent first. */
  sessions: string[];
  projects: Set<string>;
  type: ExtractedFact["type"];
}

/**
 * Merges the facts of many sessions: the same statement (case, punctuation and spacing aside) seen in
 * several sessions becomes one entry with all its sources, ranked by how many sessions support it.
 */
export function mergeFacts(
  outputs: readonly Stage1Output[],
  types: ReadonlyArray<ExtractedFact["type"]>,
): SupportedStatement[] {
  const merged = new Map<string, SupportedStatement>();
  const byRecency = [...outputs].sort((a, b) => b.sourceUpdatedAt - a.sourceUpdatedAt);
  for (const output of byRecency) {
    for (const fact of output.facts) {
      if (!types.includes(fact.type)) continue;
      const key = normalizeStatement(fact.content);
      if (!key) continue;
      const entry = merged.get(key) ?? {
        text: fact.content.trim(),
        sessions: [],
        projects: new Set(),
        type: fact.type,
      };
      if (!entry.sessions.includes(output.sessionId)) entry.sessions.push(output.sessionId);
      entry.projects.add(output.projectKey ?? "");
      merged.set(key, entry);
    }
  }
  return [...merged.values()].sort((a, b) => b.sessions.length - a.sessions.length || a.text.localeCompare(b.text));
}

export function normalizeStatement(text: string): string {
  return text
    .toLowerCase()
    .replace(/[`"'“”‘’]/g, "")
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
}

/** Statements tied to the project they were made in ("in this repo ..."), which stay out of the global workspace. */
export const projectQualifier =
  /\b(?:this|the|our) (?:repo(?:sitory)?|project|codebase|package|app|service)\b|\bhere\b/i;

/**
 * Wording that makes a statement the user's own beyond one repository: "in all my projects",
 * "I always ...", "everywhere", "in every repo". Without it a preference belongs to the project it
 * was said in ("we deploy from the release branch" is about that repository, not about the user).
 */
const USER_WIDE =
  /\b(?:in|for|across)\s+(?:all|every|each|any)\s+(?:of\s+)?(?:my|our|the)?\s*(?:projects?|repos?|repositories|codebases?|code\s+bases?)\b|\beverywhere\b|\bwherever\s+i\b|\b(?:no\s+matter|whatever)\s+(?:the|which|what)\s+(?:project|repo(?:sitory)?)\b|\bi\s+(?:always|never|generally|usually|personally)\b|\bthe\s+user\s+(?:always|never)\b|\bmy\s+(?:personal\s+)?(?:habit|preference|rule)\b/i;

/** A habit stated for every project, with nothing tying it to the one it was said in. */
export function statesUserWideHabit(text: string): boolean {
  return USER_WIDE.test(text) && !projectQualifier.test(text);
}

/** The command inside backticks of a procedural fact, if any. */
export function commandOf(text: string): string | undefined {
  return /`([^`]+)`/.exec(text)?.[1];
}
