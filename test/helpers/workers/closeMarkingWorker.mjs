// The import lane worker, marking what a lane went through in files beside the store, one "x" per
// lane: `.started` as it starts, `.ready` once the real worker is loaded, `.closed` when it is asked to
// close. A scan must close the lanes it opened whatever happens after; the test fails discovery only
// once every lane is ready, because a lane still loading (tsx compiles the worker first, seconds on a
// busy machine or with a cold cache) cannot take a message and is terminated instead after 5 s.
import { appendFileSync } from "node:fs";
import { parentPort, workerData } from "node:worker_threads";

appendFileSync(`${workerData.dbPath}.started`, "x");
const { register } = await import("tsx/esm/api");
register();
await import("../../../src/collection/importWorker.ts");
// Listened for after the worker's own handler, which then sees the "close" first, as in a real lane.
parentPort?.on("message", (message) => {
  if (message === "close") appendFileSync(`${workerData.dbPath}.closed`, "x");
});
appendFileSync(`${workerData.dbPath}.ready`, "x");
