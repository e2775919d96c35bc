import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { AgentName } from "../sources/types.js";
import { ThreadMutex } from "../store/threadMutex.js";
import { errorMessage } from "../util/errors.js";
import { type FileReport, failedReport, type PendingFile } from "./fileImport.js";

export interface ImportWorkerData {
  dbPath: string;
  maxUnprocessedItems: number;
  /** `memories.exclude`: a lane's collector applies it like the scan's. */
  exclude?: readonly string[];
  mutex: SharedArrayBuffer;
  holder: number;
}

/** A file for a lane: a `PendingFile` without its adapter, which the worker looks up by agent. */
export type LaneFile = Omit<PendingFile, "adapter"> & { agent: AgentName };

export interface ImportTask {
  id: number;
  files: LaneFile[];
}

export interface ImportWorkerReply {
  id: number;
  /** One report per file of the task, in its order. */
  reports: FileReport[];
}

export interface LaneOptions {
  dbPath: string;
  maxUnprocessedItems: number;
  exclude?: readonly string[];
  lanes: number;
  /** The worker module; by default the compiled `importWorker.js` beside this file. */
  workerUrl?: URL;
}

/** Imports a group in this thread, its write inside `turn` (used when a lane is lost). */
export type InThreadImport = (group: readonly PendingFile[], turn: <T>(write: () => T) => T) => Promise<FileReport[]>;

export interface ImportLanes {
  /** Imports a group of files (see `groupsOf`); one report per file, in order. */
  import(group: readonly PendingFile[]): Promise<FileReport[]>;
  close(): Promise<void>;
}

interface Job {
  task: ImportTask;
  group: readonly PendingFile[];
  resolve: (reports: FileReport[]) => void;
}

interface Lane {
  worker: Worker;
  holder: number;
  jobs: Map<number, Job>;
  alive: boolean;
}

/** Groups handed to one lane before it reports back: one to parse while the other waits to be written. */
const IN_FLIGHT = 2;

/**
 * Worker threads that each import whole files (read, parse, redact, write through their own
 * connection), taking turns at the store through one mutex. Returns undefined where there is no
 * compiled worker module beside this one (TypeScript run by a test loader, which worker threads do
 * not inherit, or a bundle that left it out): the caller then imports in its own thread. A lane that
 * dies hands its files to this thread, so a scan never loses one.
 */
export function openImportLanes(options: LaneOptions, inThread: InThreadImport): ImportLanes | undefined {
  // Compiled, the worker sits beside this module; a bundle of the CLI can ship one beside itself.
  const url = options.workerUrl ?? new URL("./importWorker.js", import.meta.url);
  if (url.protocol !== "file:" || !existsSync(fileURLToPath(url))) return undefined;
  const mutex = new ThreadMutex();
  const ownHolder = options.lanes + 1;
  const queue: Job[] = [];
  let head = 0;
  let nextId = 0;
  let closing = false;

  const runHere = (job: Job) => {
    // importGroup reports failures per file; anything else still ends the job, or the scan would wait forever.
    const failed = (error: unknown) =>
      job.resolve(job.group.map((entry) => failedReport(entry.file, `not stored: ${errorMessage(error)}`)));
    inThread(job.group, (write) => mutex.hold(ownHolder, write)).then(job.resolve, failed);
  };
  const pump = () => {
    for (const lane of lanes) {
      while (lane.alive && lane.jobs.size < IN_FLIGHT && head < queue.length) {
        const job = queue[head++]!;
        lane.jobs.set(job.task.id, job);
        lane.worker.postMessage(job.task);
      }
    }
    if (lanes.every((lane) => !lane.alive)) while (head < queue.length) runHere(queue[head++]!);
    if (head === queue.length) {
      queue.length = 0;
      head = 0;
    }
  };
  const lose = (lane: Lane) => {
    if (!lane.alive || closing) return;
    lane.alive = false;
    // A lane that died inside its write holds the mutex; SQLite has already rolled its transaction back.
    mutex.release(lane.holder);
    for (const job of lane.jobs.values()) runHere(job);
    lane.jobs.clear();
    pump();
  };

  const lanes: Lane[] = Array.from({ length: Math.max(1, options.lanes) }, (_, index) => {
    const workerData: ImportWorkerData = {
      dbPath: options.dbPath,
      maxUnprocessedItems: options.maxUnprocessedItems,
      ...(options.exclude && options.exclude.length > 0 ? { exclude: [...options.exclude] } : {}),
      mutex: mutex.buffer,
      holder: index + 1,
    };
    const lane: Lane = { worker: new Worker(url, { workerData }), holder: index + 1, jobs: new Map(), alive: true };
    lane.worker.on("message", (reply: ImportWorkerReply) => {
      const job = lane.jobs.get(reply.id);
      lane.jobs.delete(reply.id);
      job?.resolve(reply.reports);
      pump();
    });
    lane.worker.on("error", () => lose(lane));
    lane.worker.on("exit", () => lose(lane));
    return lane;
  });

  return {
    import(group) {
      return new Promise((resolve) => {
        const files = group.map(({ adapter, file, previous, stamp }) => ({
          agent: adapter.agent,
          file,
          previous,
          stamp,
        }));
        queue.push({ task: { id: nextId++, files }, group, resolve });
        pump();
      });
    },
    async close() {
      closing = true;
      await Promise.all(
        lanes.map(async (lane) => {
          if (!lane.alive) return;
          const exited = new Promise((resolve) => lane.worker.once("exit", resolve));
          lane.worker.postMessage("close");
          const timer = setTimeout(() => void lane.worker.terminate(), 5000);
          await exited;
          clearTimeout(timer);
        }),
      );
    },
  };
}
