import { quietOnClosedStdout } from "./quietOnClosedStdout.js";
import { unsupportedPlatformProblem } from "./unsupportedPlatform.js";

/**
 * Runs a command line in this process: the CLI's program with everything it loads. The bin entry
 * (src/cli/main.ts) comes here when no resident process answers, after turning on Node's compile cache,
 * and starts one for the next command line when this one could have been answered by it.
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
  const exitCode = await main(argv);
  // No resident process answered this command line (the bin asked first): start one for the next.
  if (exitCode === 0) {
    const { NOT_ANSWERED_BY_A_RESIDENT, startOnDemand } = await import("./resident/startOnDemand.js");
    const { BUILD_ID } = await import("./resident/protocol.js");
    const started = await startOnDemand({
      args: argv.slice(2),
      env: process.env,
      platform: process.platform,
      build: BUILD_ID,
    });
    if (process.env.CAIRN_DEBUG && started.reason !== NOT_ANSWERED_BY_A_RESIDENT)
      process.stderr.write(
        `cairn: resident process: ${started.started ? `started (pid ${started.pid})` : started.reason}\n`,
      );
  }
  return exitCode;
}
