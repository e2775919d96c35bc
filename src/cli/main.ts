#!/usr/bin/env node
import { enableCompileCache } from "./compileCache.js";
import { askResident, streamInfo } from "./resident/askResident.js";
import { printAnswer } from "./resident/printAnswer.js";

// A resident process (`cairn serve`) answers read-only command lines over a socket in the memory
// root, with the modules and the store already loaded; this module imports node built-ins only until
// it knows none does (src/cli/resident/, docs/decisions/startup.md). The bundler builds it twice: as
// CommonJS for the package's bin (dist/cli/main.cjs), which node starts without its ES module
// loader, and as an ES module (dist/cli/main.js) for commands written with that path.
// No top-level await and no import.meta here: neither exists in CommonJS.
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
  const { runCli } = await import("./runCli.js");
  process.exitCode = await runCli(process.argv);
});
