/**
 * Command and failure patterns the offline extractor looks for, across agents and languages; never about
 * any particular project. Decision language and stop words live in src/text.
 */

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
