/**
 * Language patterns the offline extractor looks for. They are about how people state preferences and
 * decisions in English, never about any particular project.
 */

/** Decision language (the auto-protection battery of the fact pipeline, seed 004). */
export const decisionPatterns: readonly RegExp[] = [
  /\bcho(?:se|sen) to (?:use|go)\b/i,
  /\bdecided (?:to|on|against)\b/i,
  /\bswitch(?:ed|ing)? (?:from|to)\b/i,
  /\bmigrat(?:ed|ing|e) (?:from|to|away)\b/i,
  /\bpicked \S+(?: \S+){0,3} over\b/i,
  /\bwent with\b/i,
  /\bsticking with\b/i,
  /\bcommitted to\b/i,
  /\bsettled on\b/i,
  /\bwill (?:use|go with|stick with)\b/i,
  /\bprefers? \S+(?: \S+){0,3} (?:over|instead|rather)\b/i,
  /\badopted\b/i,
  /\barchitecture decision\b/i,
  /\bdesign decision\b/i,
];

export function isDecision(text: string): boolean {
  return decisionPatterns.some((pattern) => pattern.test(text));
}

/** Commands that build, test, lint, type-check or run a project: the procedures worth remembering. */
export const procedureCommandPattern =
  /^(?:npm|pnpm|yarn|bun|npx|node|deno|pytest|python3? -m (?:pytest|unittest)|tox|uv run|poetry run|cargo|go (?:test|build|run|vet)|make|cmake|ctest|mvn|gradle|\.\/gradlew|dotnet|bundle exec|rake|rspec|mix|tsc|eslint|biome|ruff|mypy|black|prettier|docker compose|just)\b/;

/** Tool names that run shell commands, across agents. */
export const shellTools = new Set([
  "exec_command",
  "shell",
  "local_shell",
  "local_shell_call",
  "bash",
  "Bash",
  "run_shell_command",
  "run_terminal_cmd",
  "terminal",
]);

/** Signs in a tool's output that the command failed, when the transcript carries no exit status. */
export const failureOutputPattern =
  /(?:^|\n)\s*(?:error(?:\[E\d+\])?:|Error:|FAIL(?:ED)?\b|Traceback \(most recent call last\)|npm ERR!|fatal:|panic:|command not found|No such file or directory|exit (?:code|status):? [1-9])/;

export const stopWords = new Set(
  (
    "a an and are as at be but by can could did do does for from had has have he her here him his how i if in into is it its " +
    "just let like me my no not now of on or our out please so some than that the their them then there these they this " +
    "to too up us use used using very was we were what when where which while who why will with would yes you your ok okay " +
    "also all any been being both each few more most much must need needs new one only other over same should such sure " +
    "thanks thank via want way well get got make made see run file files code add added change changes let's it's i'm don't"
  ).split(" "),
);
