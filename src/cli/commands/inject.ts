import { resolve } from "node:path";
import type { Command } from "commander";
import { agents } from "../../agents/registry.js";
import { type GlobalOptions, homeOf } from "../context.js";
import { invocation } from "../invocation.js";
import { printJson } from "../output.js";

export function registerInject(program: Command): void {
  program
    .command("inject")
    .description(
      "print the memory block a new agent session in DIR starts with (none when there is no memory: then why, on stderr)",
    )
    .option("--cwd <dir>", "the session's working directory", invocation().cwd)
    .option("--format <format>", "text or json", "text")
    .option("--json", "same as --format json; says per summary how much was kept and whether it was cut")
    .option(
      "--agent <agent>",
      `fit the block to this agent's budget: ${agentBudgetsHelp()}, generic (the token budget)`,
      "generic",
    )
    .action(async (options: { cwd: string; format: string; agent: string }, command: Command) => {
      const global = command.optsWithGlobals<GlobalOptions>();
      // Loaded here, not at the top: this runs on agent start and needs only the config, two files and
      // (when it exists) a read-only look at the store.
      const { injectFor } = await import("../../read/injectFor.js");
      const { cwd, env, stdout, stderr } = invocation();
      const injection = await injectFor({
        home: homeOf(global),
        cwd: resolve(cwd, options.cwd),
        env,
        agent: options.agent,
      });
      if (global.json || options.format === "json") return printJson(injection);
      for (const warning of injection.warnings) stderr(`cairn inject: ${warning}\n`);
      if (injection.text) stdout(`${injection.text}\n`);
      // stdout goes into the agent's context: why nothing came is for the person reading stderr (once:
      // a store that could not be read was said by its warning).
      else if (injection.reason && !(injection.reason.code === "store_unreadable" && injection.warnings.length > 0))
        stderr(`cairn inject: ${injection.reason.message}\n`);
    });
}

/** Each registered agent, with its cap when it documents one ("claude-code (its 10,000-character cap)"). */
function agentBudgetsHelp(): string {
  return agents
    .map(({ name, injection }) =>
      injection.unit === "chars" ? `${name} (its ${withThousands(injection.cap)}-character cap)` : name,
    )
    .join(", ");
}

/**
 * 10000 as "10,000". Not `toLocaleString`: its first call loads the locale data, about 17 ms of every
 * `cairn inject` (an agent's session start), to write help text that is rarely shown.
 */
function withThousands(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}
