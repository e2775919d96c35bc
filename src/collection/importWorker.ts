import { parentPort, workerData } from "node:worker_threads";
import { adapters } from "../sources/registry.js";
import { Storage } from "../store/storage.js";
import { ThreadMutex } from "../store/threadMutex.js";
import { systemClock } from "../util/clock.js";
import { createCollector } from "./collector.js";
import { failedReport, type ImportDeps, importGroup, type PendingFile } from "./fileImport.js";
import type { ImportTask, ImportWorkerData, ImportWorkerReply } from "./importLanes.js";

/**
 * One import lane of a large scan: reads, parses and redacts a group of files, then writes the group
 * through its own connection during a turn at the lanes' shared mutex. Writing here rather than in the
 * parent saves copying every parsed item between threads and spreads the SQLite work over the cores;
 * while one lane writes, the other parses.
 */
const init = workerData as ImportWorkerData;
const storage = Storage.open(init.dbPath);
// An automatic checkpoint runs inside the commit, within the turn: the other lane would wait for it
// (and its fsync). Lanes checkpoint between turns instead, beside the other lane's writes.
storage.manualCheckpoints();
/** Transcript bytes a lane imports between two checkpoints (about a third of that reaches the WAL). */
const CHECKPOINT_BYTES = 64 * 1024 * 1024;
let uncheckpointed = 0;
const deps: ImportDeps = {
  db: storage.db,
  files: storage.sourceFiles,
  collector: createCollector(storage, {
    maxUnprocessedItems: init.maxUnprocessedItems,
    clock: systemClock,
    ...(init.exclude ? { exclude: init.exclude } : {}),
  }),
  clock: systemClock,
};
const mutex = new ThreadMutex(init.mutex);

parentPort?.on("message", async (task: ImportTask | "close") => {
  if (task === "close") {
    storage.close();
    parentPort?.close();
    return;
  }
  const group: PendingFile[] = [];
  const reports = new Map<number, ReturnType<typeof failedReport>>();
  task.files.forEach((file, index) => {
    const adapter = adapters.find((candidate) => candidate.agent === file.agent);
    if (adapter) group.push({ ...file, adapter });
    else reports.set(index, failedReport(file.file, `unreadable: no adapter for ${file.agent}`));
  });
  const stored = await importGroup(deps, group, (write) => mutex.hold(init.holder, write));
  uncheckpointed += group.reduce((sum, entry) => sum + entry.stamp.size, 0);
  if (uncheckpointed >= CHECKPOINT_BYTES) {
    storage.checkpoint();
    uncheckpointed = 0;
  }
  const reply: ImportWorkerReply = {
    id: task.id,
    reports: task.files.map((_, index) => reports.get(index) ?? stored.shift()!),
  };
  parentPort?.postMessage(reply);
});
