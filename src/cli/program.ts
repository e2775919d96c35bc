import { createRequire } from "node:module";
import { Command, CommanderError } from "commander";
import { redactText } from "../redact/redact.js";
import { withoutControls } from "../text/controlCharacters.js";
import { CairnError, errorMessage } from "../util/errors.js";
import { nonEmpty } from "./flags.js";
import { invocation } from "./invocation.js";
import { namedCommand } from "./namedCommand.js";
import { usageErrorLine } from "./usageErrorLine.js";

type Register = (program: Command) => void;

/**
 * Each top-level command's module, in help order. A command line loads only the module of the command
 * it names: the others pull in the store, the pipeline or the servers, and an agent's hook or a recall
 * should not pay for them at every start.
 */
const COMMANDS: [name: string, load: () => Promise<Register>][] = [
  ["run", async () => (await import("./commands/run.js")).registerRun],
  ["scan", async () => (await import("./commands/scan.js")).registerScan],
  ["sessions", async () => (await import("./commands/sessions.js")).registerSessions],
  ["extract", async () => (await import("./commands/extract.js")).registerExtract],
  ["consolidate", async () => (await import("./commands/consolidate.js")).registerConsolidate],
  ["status", async () => (await import("./commands/status.js")).registerStatus],
  ["checkpoint", async () => (await import("./commands/checkpoint.js")).registerCheckpoint],
  ["inject", async () => (await import("./commands/inject.js")).registerInject],
  ["read", async () => (await import("./commands/read.js")).registerRead],
  ["memory", async () => (await import("./commands/memory.js")).registerMemory],
  ["remember", async () => (await import("./commands/remember.js")).registerRemember],
  ["recall", async () => (await import("./commands/recall.js")).registerRecall],
  // One module registers both, as install and uninstall.
  ["ingest", async () => (await import("./commands/ingest.js")).registerIngest],
  ["documents", async () => (await import("./commands/ingest.js")).registerIngest],
  ["export", async () => (await import("./commands/export.js")).registerExport],
  ["import", async () => (await import("./commands/import.js")).registerImport],
  ["doctor", async () => (await import("./commands/doctor.js")).registerDoctor],
  ["config", async () => (await import("./commands/config.js")).registerConfig],
  ["embeddings", async () => (await import("./commands/embeddings.js")).registerEmbeddings],
  ["serve", async () => (await import("./commands/serve.js")).registerServe],
  ["ui", async () => (await import("./commands/ui.js")).registerUi],
  ["mcp", async () => (await import("./commands/mcp.js")).registerMcp],
  // One module registers both: see the set in buildProgram.
  ["install", async () => (await import("./commands/install.js")).registerInstall],
  ["uninstall", async () => (await import("./commands/install.js")).registerInstall],
  ["hook", async () => (await import("./commands/hook.js")).registerHook],
];

/**
 * The program with the command `args` name registered, or every command when they name none that
 * is known (help, version, a typo: commander then lists or suggests from all of them).
 */
export async function buildProgram(args: string[] = []): Promise<Command> {
  const name = namedCommand(args);
  const named = COMMANDS.find(([command]) => command === name);
  const program = new Command("cairn")
    .description(
      "Durable memory for coding agents: collects the sessions your agents write, extracts what a future session should know, consolidates it into a readable memory workspace, and gives it back.",
    )
    .version(packageVersion(), "-V, --version", "print the cairn version")
    .option("--home <dir>", "memory root (default: $CAIRN_HOME or ~/.cairn)", nonEmpty("--home", "a directory"))
    // Before any command is registered: subcommands copy the output configuration when they are made.
    // Commander's own errors quote the command line (`unknown option '--token=...'`): redacted as they
    // leave, and one line like every other error, naming the help to read.
    .configureOutput({
      writeOut: (text) => invocation().stdout(text),
      writeErr: (text) => invocation().stderr(text),
      outputError: (text, write) => write(withoutControls(usageErrorLine(redactText(text), named?.[0]))),
    })
    .exitOverride();
  const loaders = named ? [named[1]] : COMMANDS.map(([, load]) => load);
  const registers = await Promise.all(loaders.map((load) => load()));
  // A set: install and uninstall share a module, registered once.
  for (const register of new Set(registers)) register(program);
  return program;
}

function packageVersion(): string {
  // Both src/cli and dist/cli sit two levels below the package root.
  return (createRequire(import.meta.url)("../../package.json") as { version: string }).version;
}

/** Runs the CLI; every failure ends in a single stderr line and a non-zero exit code. */
export async function main(argv: string[]): Promise<number> {
  try {
    await (await buildProgram(argv.slice(2))).parseAsync(argv);
    // A command that finished but failed part of its work (a refused hook call) sets process.exitCode.
    return typeof process.exitCode === "number" ? process.exitCode : 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    const { stderr, env } = invocation();
    // SQLite's native module failing to load is one known line with its fix, whichever command met it.
    const nativeFault = (await import("../store/nativeModuleFault.js")).nativeModuleFault(error);
    if (nativeFault) {
      stderr(`cairn: ${nativeFault}\n`);
      return 1;
    }
    // An error may quote data (a path, a value from a file, the command line): its secrets are redacted
    // and its control characters stay off the terminal.
    const printable = (text: string) => withoutControls(redactText(text));
    if (error instanceof CairnError) {
      stderr(`cairn: ${printable(error.message)}\n`);
      return error.exitCode;
    }
    stderr(`cairn: ${printable(errorMessage(error))}\n`);
    if (env.CAIRN_DEBUG && error instanceof Error && error.stack) stderr(`${printable(error.stack)}\n`);
    return 1;
  }
}
