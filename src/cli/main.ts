#!/usr/bin/env node
import module from "node:module";
import { quietOnClosedStdout } from "./quietOnClosedStdout.js";
import { askResident } from "./resident/askResident.js";

quietOnClosedStdout();

// A resident process (`cairn serve`) answers read-only command lines over a socket in the memory
// root, with the modules and the store already loaded; this module imports nothing else of cairn
// until it knows none does (src/cli/resident/, docs/decisions/startup.md).
const answer = await askResident({
  args: process.argv.slice(2),
  cwd: process.cwd(),
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
});
if (answer) {
  if (answer.stdout) process.stdout.write(answer.stdout);
  if (answer.stderr) process.stderr.write(answer.stderr);
  process.exitCode = answer.exitCode ?? 1;
} else {
  // Node >= 22.1 can keep the compiled code of the CLI's chunks between runs, which is the largest
  // single cost of a short command such as `cairn recall`. The cache sits beside the bundle, so it
  // belongs to this build and leaves nothing in the user's folders; where the folder is read-only,
  // Node skips it silently. Older Node has no such API and compiles as before.
  // (Typed by hand: @types/node follows the oldest supported Node, which lacks the function.)
  const compileCache = (module as { enableCompileCache?: (directory: string) => unknown }).enableCompileCache;
  compileCache?.(new URL(".compile-cache", import.meta.url).pathname);

  const { main } = await import("./program.js");
  process.exitCode = await main(process.argv);
}
