import { createRequire } from "node:module";
import { Command, CommanderError } from "commander";
import { CairnError, errorMessage } from "../util/errors.js";
import { registerConfig } from "./commands/config.js";
import { registerConsolidate } from "./commands/consolidate.js";
import { registerDoctor } from "./commands/doctor.js";
import { registerExtract } from "./commands/extract.js";
import { registerHook } from "./commands/hook.js";
import { registerInject } from "./commands/inject.js";
import { registerInstall } from "./commands/install.js";
import { registerMcp } from "./commands/mcp.js";
import { registerMemory } from "./commands/memory.js";
import { registerRead } from "./commands/read.js";
import { registerRecall } from "./commands/recall.js";
import { registerRemember } from "./commands/remember.js";
import { registerRun } from "./commands/run.js";
import { registerScan } from "./commands/scan.js";
import { registerServe } from "./commands/serve.js";
import { registerSessions } from "./commands/sessions.js";
import { registerStatus } from "./commands/status.js";
import { nonEmpty } from "./flags.js";

export function buildProgram(): Command {
  const program = new Command("cairn")
    .description(
      "Durable memory for coding agents: collects the sessions your agents write, extracts what a future session should know, consolidates it into a readable memory workspace, and gives it back.",
    )
    .version(packageVersion(), "-V, --version", "print the cairn version")
    .option("--home <dir>", "memory root (default: $CAIRN_HOME or ~/.cairn)", nonEmpty("--home", "a directory"))
    .showHelpAfterError("(run 'cairn --help' for usage)")
    .exitOverride();
  registerRun(program);
  registerScan(program);
  registerSessions(program);
  registerExtract(program);
  registerConsolidate(program);
  registerStatus(program);
  registerInject(program);
  registerRead(program);
  registerMemory(program);
  registerRemember(program);
  registerRecall(program);
  registerDoctor(program);
  registerConfig(program);
  registerServe(program);
  registerMcp(program);
  registerInstall(program);
  registerHook(program);
  return program;
}

function packageVersion(): string {
  // Both src/cli and dist/cli sit two levels below the package root.
  return (createRequire(import.meta.url)("../../package.json") as { version: string }).version;
}

/** Runs the CLI; every failure ends as one line on stderr and a non-zero exit code. */
export async function main(argv: string[]): Promise<number> {
  try {
    await buildProgram().parseAsync(argv);
    // A command that finished but failed part of its work (a refused hook call) sets process.exitCode.
    return typeof process.exitCode === "number" ? process.exitCode : 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    if (error instanceof CairnError) {
      process.stderr.write(`cairn: ${error.message}\n`);
      return error.exitCode;
    }
    process.stderr.write(`cairn: ${errorMessage(error)}\n`);
    if (process.env.CAIRN_DEBUG && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
    return 1;
  }
}
