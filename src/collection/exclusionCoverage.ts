import { type ExclusionOptions, exclusionMatcher } from "../project/exclusion.js";

/** What one `memories.exclude` pattern covers among the sessions cairn knows. */
export interface PatternCoverage {
  pattern: string;
  sessions: number;
  projects: number;
}

/**
 * For each pattern, the known sessions it covers and their distinct projects, so that `config set`
 * can say what a pattern does now (and warn about one that matches nothing, a typo most often).
 */
export function exclusionCoverage(
  patterns: readonly string[],
  sessions: ReadonlyArray<{ cwd: string | null; projectKey: string | null }>,
  options: ExclusionOptions = {},
): PatternCoverage[] {
  return patterns.map((pattern) => {
    const match = exclusionMatcher([pattern], options);
    const covered = sessions.filter((session) => match?.(session.cwd, session.projectKey) !== undefined);
    const projects = new Set(covered.map((session) => session.projectKey ?? session.cwd ?? ""));
    return { pattern, sessions: covered.length, projects: projects.size };
  });
}
