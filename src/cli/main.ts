#!/usr/bin/env node
import module from "node:module";

// Node >= 22.1 can keep the compiled code of the CLI's chunks between runs, which is the largest
// single cost of a short command such as `cairn recall`. The cache sits beside the bundle, so it
// belongs to this build and leaves nothing in the user's folders; where the folder is read-only,
// Node skips it silently. Older Node has no such API and compiles as before.
// (Typed by hand: @types/node follows the oldest supported Node, which lacks the function.)
const compileCache = (module as { enableCompileCache?: (directory: string) => unknown }).enableCompileCache;
compileCache?.(new URL(".compile-cache", import.meta.url).pathname);

const { main } = await import("./program.js");
const { quietOnClosedStdout } = await import("./quietOnClosedStdout.js");
quietOnClosedStdout();
process.exitCode = await main(process.argv);
