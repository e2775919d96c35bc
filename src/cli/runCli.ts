import module from "node:module";
import { quietOnClosedStdout } from "./quietOnClosedStdout.js";

/**
 * Runs a command line in this process: the CLI's program with everything it loads. The bin entry
 * (src/cli/main.ts) comes here when no resident process answers.
 */
export async function runCli(argv: string[]): Promise<number> {
  quietOnClosedStdout();
  // Node >= 22.1 can keep the compiled code of the CLI's chunks between runs, which is the largest
  // single cost of a short command such as `cairn recall`. The cache sits beside the bundle, so it
  // belongs to this build and leaves nothing in the user's folders; where the folder is read-only,
  // Node skips it silently. Older Node has no such API and compiles as before.
  // (Typed by hand: @types/node follows the oldest supported Node, which lacks the function.)
  // Run from the TypeScript source (tests, tsx) there is no build to belong to: no cache in the checkout.
  const compileCache = (module as { enableCompileCache?: (directory: string) => unknown }).enableCompileCache;
  if (!import.meta.url.endsWith(".ts")) compileCache?.(new URL(".compile-cache", import.meta.url).pathname);

  // better-sqlite3 13 crashes on a Node.js without Node-API 10 (Node 20): say so instead.
  if (Number(process.versions.napi) < 10) {
    const fault = (await import("../store/nativeModuleFault.js")).unsupportedNodeFault();
    if (fault) {
      process.stderr.write(`cairn: ${fault}\n`);
      return 1;
    }
  }

  const { main } = await import("./program.js");
  return main(argv);
}
