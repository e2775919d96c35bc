/**
 * Command and failure patterns the offline extractor looks for, across agents and languages; never about
 * any particular project. Decision language and stop words live in src/text.
 */

/** Commands that build, test, lint, type-check or run a project: the procedures worth remembering. */
export const procedureCommandPattern =
  /^(?:npm|pnpm|yarn|bun|npx|node|deno|pytest|python3? -m (?:pytest|unittest)|tox|uv run|poetry run|cargo|go (?:test|build|run|vet)|make|cmake|ctest|mvn|gradle|\.\/gradlew|dotnet|bundle exec|rake|rspec|mix|tsc|eslint|biome|ruff|mypy|black|prettier|docker compose|just)\b/;

/**
 * Procedures that act on the world beyond the working copy: publishing, releasing, deploying, bumping
 * the version, pushing. That one once worked is history, not a tip to repeat in every later session
 * (an agent reading "Command that worked: `npm run version:minor`" may well run it). Matched against
 * the command family (program, subcommand, a runner's script).
 */
export const outwardCommandPattern =
  /(?:^|[\s:/-])(?:publish|release|deploy|version|bump|push|upload|destroy|rollback)(?:$|[\s:/-])/;

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

/**
 * Signs in a tool's output that the command failed, when the transcript carries no exit status (or a
 * pipe's last stage set it): a diagnostic opening a line, a compiler's located error ("src/a.ts(3,1):
 * error TS2345"), npm's error block (npm 10 prints "npm error", older "npm ERR!"), a shell's or a core
 * utility's message anywhere in a line ("cp: x: No such file or directory"), a test run's count of
 * failures (vitest, jest, pytest, mocha). Gemini CLI's shell result names its fields ("Error: (none)",
 * "Exit Code: 1" in older versions; "Exit Code" only when non-zero in newer ones). Anywhere in a line: a
 * non-zero exit status ("... with execution error: sandbox denied exec error, exit code: 101"), a
 * timeout, a panic, a permission the OS or a sandbox refused: a harness reports these inside a longer
 * line, and one of them anywhere in an output means the command did not do its job.
 */
export const failureOutputPattern =
  /(?:^|\n)\s*(?:error(?:\[E\d+\])?:|Error:(?! \(none\))|FAIL(?:ED)?\b|Traceback \(most recent call last\)|npm ERR!|npm error\b|fatal:|panic:|command not found|No such file or directory)|\b[Ee]xit (?:[Cc]ode|[Ss]tatus)(?::\s*|\s+)[1-9]\d*\b|\b(?:timed out|panicked at|Operation not permitted|sandbox denied|failed in sandbox|denied by (?:the )?sandbox|Script failed)\b|\berror TS\d+:|: (?:No such file or directory|command not found|Permission denied)\b|(?:^|\n)[^\n]*\b(?:Tests?:?\s+|=+ )[1-9]\d* failed\b|(?:^|\n)\s*[1-9]\d* failing\b/;

/**
 * Signs that a command succeeded, read only when its exit status is not its own (a pipe into a filter
 * gives the filter's): a test run's count of passes, a build's or a checker's closing line. Failure
 * signs are read first, so "Tests  1 failed | 11 passed" is a failure.
 */
export const successOutputPattern =
  /(?:^|\n)[^\n]*\b(?:Tests?:?\s+|=+ )?\d+ (?:passed|passing)\b|(?:^|\n)(?:ok\s+\S|PASS\b)|\btest result: ok\b|\bNo fixes applied\b|\bCompiled successfully\b|\b[Bb]uild (?:succeeded|complete(?:d)?)\b|(?:^|\n)\s*Finished\b|\bbuilt in \d|\bDone in \d|\bAll checks passed\b|\bFound 0 errors\b/;

/**
 * Programs that look rather than do: a search (grep, rg, find), a read (cat, sed -n, head, ls), a
 * comparison (diff, git diff), a test. A non-zero exit answers a question (nothing found, a difference,
 * false), and what they print is the file's text, where "error:" may be a line of code; neither their
 * success nor their failure says how the project is built or run.
 */
export const inspectionProgramPattern =
  /^(?:grep|egrep|fgrep|rg|ag|ack|find|fd|ls|tree|cat|bat|nl|sed -n|head|tail|less|more|awk|wc|file|stat|pwd|echo|printf|test|\[|diff|cmp|which|type|command -v|pgrep|git (?:grep|diff|status|log|show|blame|branch))\b/;

/**
 * A command the user stopped: refused before it ran (Claude Code: "The user doesn't want to proceed
 * with this tool use"), aborted while it ran (oh-my-pi: "Command aborted"; Gemini CLI: "Command was
 * cancelled by user before it could complete"; OpenCode: "User aborted the command"), interrupted. Its error flag
 * says nothing about the command.
 */
export const stoppedByUserPattern =
  /The user doesn't want to proceed with this tool use|\btool use was rejected\b|\brejected by (?:the )?user\b|(?:^|\n)Command aborted\b|\b(?:interrupted|cancell?ed) by (?:the )?user\b|\bUser aborted the command\b/i;

/**
 * A command that had not finished when its result was recorded: Codex's unified exec ("Process running
 * with session ID 41", then the output so far), a command sent to the background (Claude Code: "Command
 * running in background with ID: ..."; Gemini CLI: "Command moved to background"). What it printed so
 * far says neither that it worked nor that it failed.
 */
export const unfinishedPattern =
  /^(?:Process running with session ID|Command running in background|Command moved to background)\b/;

/**
 * Lines that never say why a command failed: npm's echo of the script it runs ("> app@1.0.0 test",
 * "> vitest run"), Node's inspector notices, and the exit status lines agents append.
 */
export const noiseLinePattern =
  /^(?:> \S|Debugger attached\.|Waiting for the debugger to disconnect|For help, see: https:\/\/nodejs\.org)/;

/** An exit status line an agent or a harness appends to a command's output. */
export const exitLinePattern =
  /^\(?(?:Command exited with code|Process exited with code|Exit code:?|exit (?:code|status):?|no output, exit code)\s*-?\d+\)?$/i;
