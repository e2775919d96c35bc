import { malformedAnswer, sumTokenCounts, tokenCount } from "./answerErrors.js";
import { DEFAULT_TIMEOUT_MS, defaultModels } from "./defaults.js";
import { findOnPath } from "./findOnPath.js";
import { schemaInstruction, unwrapJsonFence } from "./jsonText.js";
import type { CliProviderOptions } from "./providerOptions.js";
import { type CliRun, exitError, runCli } from "./runCli.js";
import { withTempDir } from "./tempDir.js";
import { type LlmProvider, type LlmRequest, type LlmResult, ProviderError } from "./types.js";
import { unsupportedOptionWarnings } from "./warnings.js";

/**
 * Linux limits one argument to 128 KiB; a longer system prompt goes on stdin ahead of the prompt.
 */
const MAX_SYSTEM_ARG_CHARS = 100_000;

/**
 * A model call reads transcripts, which hold whatever the agent read (web pages, files of other
 * repositories), so it must not be able to act on them with the user's tools and permissions. Without
 * these flags `claude -p` starts with every built-in tool (and the user's allow rules), every MCP server
 * of the user's, the user's hooks (another plugin's SessionStart context would join the session being
 * extracted), and saves its own transcript. Flags from https://code.claude.com/docs/en/cli-reference:
 * `--tools ""` disables the built-in tools; `--strict-mcp-config` with an empty `--mcp-config` loads no
 * MCP server; `--no-session-persistence` saves no session (print mode only). `disableAllHooks` is a
 * settings key (https://code.claude.com/docs/en/settings), given through `--settings`.
 */
export const CLAUDE_TOOL_LESS_ARGS: readonly string[] = [
  "--tools",
  "",
  "--strict-mcp-config",
  "--mcp-config",
  '{"mcpServers":{}}',
  "--no-session-persistence",
  "--settings",
  '{"disableAllHooks":true}',
];

/**
 * The Claude Code CLI in print mode: `claude -p --output-format json --model <model>`, with no tools,
 * no MCP server and no hooks (`CLAUDE_TOOL_LESS_ARGS`), prompt on stdin.
 *
 * The system prompt goes through `--append-system-prompt` so that it stays an instruction apart
 * from the user turn, where transcript text sits as quoted data. The CLI has no schema flag on every
 * version in use, so a requested JSON schema becomes an instruction in that system prompt (with a
 * warning) and a ```json fence around the answer is removed.
 */
export class ClaudeCliProvider implements LlmProvider {
  readonly name = "claude-cli";
  readonly model: string;
  private readonly options: CliProviderOptions;

  constructor(options: CliProviderOptions = {}) {
    this.model = options.model ?? defaultModels["claude-cli"];
    this.options = options;
  }

  async generate(request: LlmRequest): Promise<LlmResult> {
    const warnings = unsupportedOptionWarnings(this.name, request, ["temperature", "maxOutputTokens"]);
    let system = request.system;
    if (request.jsonSchema) {
      system = [system, schemaInstruction(request.jsonSchema)].filter(Boolean).join("\n\n");
      warnings.push("claude-cli: no native JSON-schema mode; the schema was given as an instruction");
    }
    const systemOnStdin = system.length > MAX_SYSTEM_ARG_CHARS;
    const args = ["-p", "--output-format", "json", "--model", this.model, ...CLAUDE_TOOL_LESS_ARGS];
    if (system && !systemOnStdin) args.push("--append-system-prompt", system);
    args.push(...(this.options.extraArgs ?? []));
    const stdin = systemOnStdin ? `${system}\n\n${request.prompt}` : request.prompt;

    const run = await withTempDir("cairn-claude-", (cwd) =>
      runCli({
        provider: this.name,
        command: this.options.command ?? "claude",
        args,
        stdin,
        cwd,
        env: this.options.env,
        timeoutMs: request.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        signal: request.signal,
      }),
    );
    const answer = readClaudeResult(run);
    return {
      text: request.jsonSchema ? unwrapJsonFence(answer.text) : answer.text,
      usage: answer.usage,
      provider: this.name,
      model: this.model,
      warnings,
    };
  }

  async available(): Promise<boolean> {
    return findOnPath(this.options.command ?? "claude", this.options.env ?? process.env) !== undefined;
  }
}

interface ClaudeResultMessage {
  type?: unknown;
  subtype?: unknown;
  is_error?: unknown;
  result?: unknown;
  usage?: Record<string, unknown>;
}

/** Reads the one result object the CLI prints; older versions with --verbose printed an array of messages. */
function readClaudeResult(run: CliRun): Pick<LlmResult, "text" | "usage"> {
  const message = parseResultMessage(run.stdout);
  const unknownFlag = /unknown option '(--[a-z-]+)'/.exec(run.stderr)?.[1];
  if (run.exitCode !== 0 && unknownFlag) throw tooOld(run, unknownFlag);
  if (run.exitCode !== 0 || message?.is_error === true) {
    const said = typeof message?.result === "string" ? message.result : undefined;
    throw exitError("claude-cli", run, run.stderr.trim() || said);
  }
  if (typeof message?.result !== "string") {
    throw malformedAnswer("claude-cli", "output is not a JSON result with a `result` text", run.stdout);
  }
  const usage = message.usage ?? {};
  return {
    text: message.result,
    usage: {
      inputTokens: sumTokenCounts(usage.input_tokens, usage.cache_creation_input_tokens, usage.cache_read_input_tokens),
      outputTokens: tokenCount(usage.output_tokens),
    },
  };
}

/** A claude that does not know a flag cairn needs to run it safely: retrying will not help, updating will. */
function tooOld(run: CliRun, flag: string): ProviderError {
  return new ProviderError({
    provider: "claude-cli",
    kind: "config",
    message: `claude-cli: this claude does not know ${flag}, which cairn needs to run it without tools, MCP servers or hooks; update Claude Code (\`claude update\`) or choose another provider (\`cairn config set llm.provider ...\`)`,
    isRetryable: false,
    exitCode: run.exitCode ?? undefined,
    responseBody: run.stderr.slice(0, 10_000),
  });
}

function parseResultMessage(stdout: string): ClaudeResultMessage | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(stdout);
  } catch {
    return undefined;
  }
  const candidates = Array.isArray(parsed) ? parsed : [parsed];
  const result = candidates.filter((item) => (item as ClaudeResultMessage | null)?.type === "result").at(-1);
  return (result ?? (Array.isArray(parsed) ? undefined : parsed)) as ClaudeResultMessage | undefined;
}
