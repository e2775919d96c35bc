import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { malformedAnswer, tokenCount } from "./answerErrors.js";
import { DEFAULT_TIMEOUT_MS, defaultModels } from "./defaults.js";
import { findOnPath } from "./findOnPath.js";
import type { CliProviderOptions } from "./providerOptions.js";
import { exitError, runCli } from "./runCli.js";
import { withTempDir } from "./tempDir.js";
import type { LlmProvider, LlmRequest, LlmResult, LlmUsage } from "./types.js";
import { unsupportedOptionWarnings } from "./warnings.js";

/**
 * The Codex CLI: `codex exec --skip-git-repo-check --sandbox read-only --json [-m <model>]
 * [--output-schema <file>] --output-last-message <file> -`, prompt on stdin.
 *
 * The schema is native (`--output-schema`); OpenAI's strict mode applies there, so a schema must
 * list every property as required and close objects with additionalProperties:false. `codex exec`
 * has no system-prompt flag on every version, so the system text is put ahead of the prompt.
 * `--json` is only read for the turn's token usage; the answer comes from the last-message file.
 * The sandbox is read-only because an extraction never needs to change files, and the shell tool is
 * off (`features.shell_tool`, openai/codex#6481) because it never needs to run a command either: the
 * prompt quotes transcripts, whose text (pages and files the agent read) must not get a model that
 * reads this machine's files into its answer.
 */
export class CodexCliProvider implements LlmProvider {
  readonly name = "codex-cli";
  readonly model: string;
  private readonly options: CliProviderOptions;

  constructor(options: CliProviderOptions = {}) {
    this.model = options.model ?? defaultModels["codex-cli"];
    this.options = options;
  }

  async generate(request: LlmRequest): Promise<LlmResult> {
    const warnings = unsupportedOptionWarnings(this.name, request, ["temperature", "maxOutputTokens"]);
    const { text, usage } = await withTempDir("cairn-codex-", (dir) => this.run(request, dir));
    return { text, usage, provider: this.name, model: this.model, warnings };
  }

  async available(): Promise<boolean> {
    return findOnPath(this.options.command ?? "codex", this.options.env ?? process.env) !== undefined;
  }

  private async run(request: LlmRequest, dir: string): Promise<Pick<LlmResult, "text" | "usage">> {
    const lastMessageFile = path.join(dir, "last-message.txt");
    const args = [
      "exec",
      "--skip-git-repo-check",
      "--sandbox",
      "read-only",
      "-c",
      "features.shell_tool=false",
      "--json",
    ];
    // The placeholder default model means "let codex choose": no -m.
    if (this.model !== defaultModels["codex-cli"]) args.push("-m", this.model);
    if (request.jsonSchema) {
      const schemaFile = path.join(dir, "output-schema.json");
      await writeFile(schemaFile, JSON.stringify(request.jsonSchema.schema));
      args.push("--output-schema", schemaFile);
    }
    args.push("--output-last-message", lastMessageFile, ...(this.options.extraArgs ?? []), "-");

    const run = await runCli({
      provider: this.name,
      command: this.options.command ?? "codex",
      args,
      stdin: request.system ? `${request.system}\n\n${request.prompt}` : request.prompt,
      cwd: dir,
      env: this.options.env,
      timeoutMs: request.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      signal: request.signal,
    });
    const events = readCodexEvents(run.stdout);
    if (run.exitCode !== 0) throw exitError(this.name, run, run.stderr.trim() || events.error);
    const text = await readFile(lastMessageFile, "utf8").catch(() => undefined);
    if (text === undefined) throw malformedAnswer(this.name, "codex wrote no last message", run.stdout.slice(-2_000));
    return { text: text.replace(/\n$/, ""), usage: events.usage };
  }
}

interface CodexEvent {
  type?: unknown;
  message?: unknown;
  error?: { message?: unknown };
  usage?: Record<string, unknown>;
}

/** Token usage of the last completed turn and the last error message from `codex exec --json` output. */
export function readCodexEvents(stdout: string): { usage: LlmUsage; error: string | undefined } {
  let usage: LlmUsage = {};
  let error: string | undefined;
  for (const line of stdout.split("\n")) {
    let event: CodexEvent;
    try {
      event = JSON.parse(line) as CodexEvent;
    } catch {
      continue; // Progress text or a torn line: only the events below matter.
    }
    if (event?.type === "turn.completed" && event.usage) {
      // Codex counts cached input inside input_tokens, so input_tokens is already the prompt's size.
      usage = {
        inputTokens: tokenCount(event.usage.input_tokens),
        outputTokens: tokenCount(event.usage.output_tokens),
      };
    }
    if (event?.type === "error" && typeof event.message === "string") error = event.message;
    if (event?.type === "turn.failed" && typeof event.error?.message === "string") error = event.error.message;
  }
  return { usage, error };
}
