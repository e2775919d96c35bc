#!/usr/bin/env node
import { join } from "node:path";
import { codeCacheDir, enableCompileCache } from "./compileCache.js";
import { codeCacheFile, loadProgram } from "./loadProgram.js";
import { namedCommand } from "./namedCommand.js";
import { askResident, streamInfo } from "./resident/askResident.js";
import { printAnswer } from "./resident/printAnswer.js";
import { BUILD_ID } from "./resident/protocol.js";

// A resident process (`cairn serve`) answers read-only command lines over a socket in the memory
// root, with the modules and the store already loaded; this module imports node built-ins only until
// it knows none does (src/cli/resident/, docs/decisions/startup.md). The bundler builds it as the
// package's bin, CommonJS (dist/cli/main.cjs), which node starts without its ES module loader; it then
// requires the program, one CommonJS file (dist/cli/program.cjs).
// No top-level await and no import.meta here: neither exists in CommonJS.

/** The program's bundle beside the bin (scripts/bundle-cli.mjs); undefined when run from the sources. */
declare const CAIRN_PROGRAM: string | undefined;

void askResident({
  args: process.argv.slice(2),
  cwd: process.cwd(),
  env: process.env,
  stdout: streamInfo(1),
  stderr: streamInfo(2),
}).then(async (answer) => {
  if (answer)
    return printAnswer({ stdout: answer.stdout ?? "", stderr: answer.stderr ?? "", exitCode: answer.exitCode ?? 1 });
  // Before the program's modules load, so that their compiled code is kept for the next run.
  enableCompileCache();
  const { runCli } = typeof CAIRN_PROGRAM === "string" ? program(CAIRN_PROGRAM) : await import("./runCli.js");
  process.exitCode = await runCli(process.argv);
});

/** The bundled program beside this file, with the code cache of the command named (src/cli/loadProgram.ts). */
function program(file: string) {
  const cache = codeCacheDir();
  return loadProgram(join(__dirname, file), {
    cacheFile: cache === undefined ? undefined : codeCacheFile(cache, BUILD_ID, namedCommand(process.argv.slice(2))),
  });
}
