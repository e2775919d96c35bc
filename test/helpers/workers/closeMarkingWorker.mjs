// The import lane worker, marking each lane that is asked to close (a file beside the store gets an
// "x"): a scan must close the lanes it opened whatever happens after. The mark is listened for after
// the worker's own handler, so that a "close" sent while it loads still reaches that handler too.
import { appendFileSync } from "node:fs";
import { parentPort, workerData } from "node:worker_threads";
import { register } from "tsx/esm/api";

register();
await import("../../../src/collection/importWorker.ts");
parentPort?.on("message", (message) => {
  if (message === "close") appendFileSync(`${workerData.dbPath}.closed`, "x");
});
