import { resolve } from "node:path";
import type { Command } from "commander";
import { redactText } from "../../redact/redact.js";
import { errorMessage } from "../../util/errors.js";
import type { GlobalOptions } from "../context.js";
import { nonEmpty, wholeNumber } from "../flags.js";

export function registerServe(program: Command): void {
  program
    .command("serve")
    .description(
      "daemon: the pipeline on a schedule plus a JSON HTTP API (and MCP at /mcp) on 127.0.0.1; answers the CLI's recall and inject over a socket in the memory root",
    )
    .option(
      "--host <host>",
      "address to listen on (default: server.host, 127.0.0.1)",
      nonEmpty("--host", "an address to listen on"),
    )
    .option(
      "--port <port>",
      "port to listen on, 0 for any free port (default: server.port, 7077)",
      wholeNumber("--port", 0, 65_535),
    )
    .option("--no-schedule", "serve the API only; run no pipeline cycles")
    .action(async (options: { host?: string; port?: number; schedule: boolean }, command: Command) => {
      await startServing(command.optsWithGlobals<GlobalOptions>(), options);
      // The action returns; the HTTP server and the scheduler keep the process alive until a signal.
    });
}

/**
 * Starts the daemon and the resident socket, stopped by SIGINT or SIGTERM: `cairn serve`, and `cairn ui`
 * when no server is running. Returns the daemon's base URL.
 */
export async function startServing(
  global: GlobalOptions,
  options: { host?: string; port?: number; schedule: boolean },
): Promise<string> {
  const { port } = options;
  const [{ Cairn }, { startDaemon }, { loadNativeModule }] = await Promise.all([
    import("../../cairn.js"),
    import("../../server/startDaemon.js"),
    import("../../store/nativeModuleFault.js"),
  ]);
  // Without SQLite's native module every request and cycle would fail: refuse to start instead.
  loadNativeModule();
  const cairn = new Cairn(global.home ? { home: global.home } : {});
  let daemon: Awaited<ReturnType<typeof startDaemon>>;
  try {
    daemon = await startDaemon({
      cairn,
      ...(options.host ? { host: options.host } : {}),
      ...(port === undefined ? {} : { port }),
      schedule: options.schedule,
    });
  } catch (error) {
    cairn.close();
    throw error;
  }
  // The handlers go in before the resident starts: the daemon's workers already run, and a signal
  // while the resident starts must stop them gracefully too, not end the process mid-write.
  const resident = startResidentFor(cairn.paths.home);
  let signals = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    signals += 1;
    // A second signal means "now": do not wait for the running step any longer.
    if (signals > 1) process.exit(130);
    process.stderr.write(`cairn serve: ${signal}: stopping (waiting for the running step)\n`);
    void Promise.all([daemon.stop(), resident.then((started) => started?.close())]).then(() => process.exit(0));
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  await resident;
  return daemon.url;
}

/**
 * The socket on which this process answers `cairn recall` and `cairn inject` for the CLI
 * (src/cli/resident/), unless CAIRN_RESIDENT=off. The daemon runs on without it when it cannot listen.
 */
async function startResidentFor(home: string) {
  if (process.env.CAIRN_RESIDENT === "off") return undefined;
  // Redacted as in the daemon's own log: a problem can quote a path or an error that holds a secret.
  const log = (line: string) => process.stderr.write(`cairn serve: ${redactText(line)}\n`);
  const [{ startResident }, { stopResident }] = await Promise.all([
    import("../resident/residentServer.js"),
    import("../resident/stopResident.js"),
  ]);
  try {
    // One that cairn started by itself (after a recall) gives way; another `cairn serve` keeps its socket.
    await stopResident(resolve(home));
    return await startResident({ home: resolve(home), log });
  } catch (error) {
    log(`resident: not answering command lines: ${errorMessage(error)}`);
    return undefined;
  }
}
