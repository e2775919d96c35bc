// The fake model's thread (started by startFactModelServer): serves until the main thread says "close".
import { parentPort, workerData } from "node:worker_threads";
import { listenFactModel } from "./factModelServer.js";

const server = await listenFactModel(workerData as Parameters<typeof listenFactModel>[0]);
parentPort?.postMessage({ port: server.port });
parentPort?.once("message", () => {
  void server.close().then(() => parentPort?.close());
});
