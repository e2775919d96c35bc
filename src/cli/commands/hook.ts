import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { Command } from "commander";
import { cairnHome } from "../../config/paths.js";
import { redactText } from "../../redact/redact.js";
import { errorMessage } from "../../util/errors.js";
import type { GlobalOptions } from "../context.js";
import { aboveZero } from "../flags.js";

// Everything below is imported lazily: this command runs on every agent start, and the modules it
// needs (config, file-only injection) are a small part of what the rest of the CLI loads.

/**
 * A line for the agent's hook output (its log, sometimes its screen): redacted, since a problem can quote
 * a config value or a path that holds a secret. The redactor is on this path already (the program's
 * error print), so it costs the hook nothing more.
 */
function warn(line: string): void {
  process.stderr.write(`${redactText(line)}\n`);
}

function homeOf(command: Command): string {
  const global = command.optsWithGlobals<GlobalOptions>();
  return global.home ? resolve(global.home) : cairnHome(process.env);
}

export function registerHook(program: Command): void {
  const hook = program.command("hook").description("entry points for agents' hooks (installed by 'cairn install')");

  hook
    .command("session-start")
    .description("print the memory block for a starting session and start the pipeline in the background")
    .option(
      "--agent <name>",
      "the calling agent: claude-code or gemini (hook JSON), codex / other (plain text)",
      "other",
    )
    .option("--cwd <dir>", "the session's directory (default: the hook input's cwd, else the current directory)")
    .action(async (options: { agent: string; cwd?: string }, command: Command) => {
      // A hook must never fail or block the agent: every problem becomes one stderr line and exit 0.
      try {
        const [{ readHookStdin }, { sessionStartHook }] = await Promise.all([
          import("../../connectors/readHookStdin.js"),
          import("../../connectors/sessionStartHook.js"),
        ]);
        const input = await readHookStdin();
        const result = await sessionStartHook({
          agent: options.agent,
          home: homeOf(command),
          ...(options.cwd ? { cwd: resolve(options.cwd) } : {}),
          input,
          env: process.env,
        });
        if (result.stdout) process.stdout.write(result.stdout);
        for (const warning of result.warnings) warn(`cairn hook: ${warning}`);
        if (process.env.CAIRN_DEBUG) warn(`cairn hook: background run: ${result.run.reason}`);
      } catch (error) {
        warn(`cairn hook: ${errorMessage(error)}`);
      }
    });

  for (const [event, agentEvent] of [
    ["pre-compact", "PreCompact (Claude Code) / PreCompress (Gemini CLI)"],
    ["session-end", "SessionEnd (Claude Code, Gemini CLI)"],
  ] as const) {
    hook
      .command(event)
      .description(`write a session checkpoint from the agent's ${agentEvent} hook input`)
      .option("--agent <name>", "the calling agent: claude-code or gemini (says how to read its transcript)", "other")
      .option("--cwd <dir>", "the session's directory (default: the hook input's cwd)")
      .action(async (options: { agent: string; cwd?: string }, command: Command) => {
        // Like session-start: never fails or blocks the agent; stdout stays empty (Gemini CLI: `{}`).
        try {
          const [{ readHookStdin }, { checkpointHook }] = await Promise.all([
            import("../../connectors/readHookStdin.js"),
            import("../../connectors/checkpointHook.js"),
          ]);
          const outcome = await checkpointHook({
            event,
            agent: options.agent,
            home: homeOf(command),
            ...(options.cwd ? { cwd: resolve(options.cwd) } : {}),
            input: await readHookStdin(),
            env: process.env,
          });
          if (process.env.CAIRN_DEBUG)
            warn(
              `cairn hook: ${outcome.written ? `checkpoint ${outcome.id}${outcome.merged ? " (merged)" : ""}` : `no checkpoint: ${outcome.reason}`}`,
            );
        } catch (error) {
          warn(`cairn hook: ${errorMessage(error)}`);
        }
        if (options.agent === "gemini") process.stdout.write("{}\n");
      });
  }

  hook
    .command("confine", { hidden: true })
    .description("PreToolUse hook of the consolidation agent: refuse any tool call outside --root")
    .requiredOption("--root <dir>", "the workspace the agent consolidates")
    .action(async (options: { root: string }) => {
      // Fails closed: Claude Code blocks a call only on exit 2, so every problem here exits 2 too.
      try {
        const [{ readHookStdin }, { confineToolCall }] = await Promise.all([
          import("../../connectors/readHookStdin.js"),
          import("../../pipeline/phase2/consolidators/confineToolCall.js"),
        ]);
        const decision = confineToolCall(await readHookStdin(process.stdin, 5_000), resolve(options.root));
        if (decision.allow) return;
        warn(decision.reason);
      } catch (error) {
        warn(`cairn hook confine: ${errorMessage(error)}`);
      }
      process.exitCode = 2;
    });

  hook
    .command("resident", { hidden: true })
    .description(
      "answer recall and inject on the memory root's socket until idle; started by those commands themselves; logs to <home>/background.log",
    )
    .requiredOption(
      "--idle-minutes <minutes>",
      "end after this long without a command line",
      aboveZero("--idle-minutes", 1440),
    )
    .action(async (options: { idleMinutes: number }, command: Command) => {
      const home = homeOf(command);
      const [{ answerUntilIdle }, { appendBackgroundLog }, { cliEntry }, { loadConfigCached }, { cairnPaths }] =
        await Promise.all([
          import("../resident/residentLifetime.js"),
          import("../../workers/backgroundLog.js"),
          import("../../util/cairnInvocation.js"),
          import("../../config/loadConfigCached.js"),
          import("../../config/paths.js"),
        ]);
      const log = (line: string) => {
        // Never the line that makes a memory root again after it was deleted under this process.
        if (!existsSync(home)) return;
        try {
          appendBackgroundLog(home, `${new Date().toISOString()} ${line}`);
        } catch {
          // A memory root that cannot take a log line still gets its answers.
        }
      };
      try {
        await answerUntilIdle({
          home,
          idleMs: options.idleMinutes * 60_000,
          entry: cliEntry(),
          log,
          idleSetting: async () => {
            const config = await loadConfigCached({ file: cairnPaths(home).config, env: process.env, warn: () => {} });
            return config.resident.idleMinutes * 60_000;
          },
        });
      } catch (error) {
        log(`resident: ${errorMessage(error)}`);
      }
    });

  hook
    .command("run-background", { hidden: true })
    .description("one pipeline run for a detached background process; logs to <home>/background.log")
    .action(async (_options: unknown, command: Command) => {
      const home = homeOf(command);
      const [{ Cairn }, { runPipelineCycle, formatCycle }, { appendBackgroundLog }] = await Promise.all([
        import("../../cairn.js"),
        import("../../workers/runPipeline.js"),
        import("../../workers/backgroundLog.js"),
      ]);
      try {
        const cairn = new Cairn({ home });
        try {
          appendBackgroundLog(home, formatCycle(await runPipelineCycle(cairn, { skipIfBusy: true })));
        } finally {
          cairn.close();
        }
      } catch (error) {
        const { nativeModuleFault } = await import("../../store/nativeModuleFault.js");
        const reason = nativeModuleFault(error) ?? errorMessage(error);
        appendBackgroundLog(home, `${new Date().toISOString()} pipeline failed to start: ${reason}`);
      }
    });
}
