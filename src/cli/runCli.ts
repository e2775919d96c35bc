import { quietOnClosedStdout } from "./quietOnClosedStdout.js";
import { unsupportedPlatformProblem } from "./unsupportedPlatform.js";

/**
 * Runs a command line in this process: the CLI's program with everything it loads. The bin entry
 * (src/cli/main.ts) comes here when no resident process answers, after turning on Node's compile cache.
 */
export async function runCli(argv: string[]): Promise<number> {
  quietOnClosedStdout();
  const refused = unsupportedPlatformProblem(process.platform);
  if (refused) {
    process.stderr.write(`cairn: ${refused}\n`);
    return 1;
  }

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
