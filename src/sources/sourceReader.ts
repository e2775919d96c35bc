import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { ReadRequest, SourceAdapter } from "./adapter.js";
import { readSource, type SourceRead } from "./readSource.js";

/** Reads files for the scanner, in this thread or in a worker thread. */
export interface SourceReader {
  read(adapter: SourceAdapter, request: ReadRequest): Promise<SourceRead>;
  close(): Promise<void>;
}

export const inThreadReader: SourceReader = {
  read: (adapter, request) => readSource(adapter, request),
  close: async () => {},
};

/**
 * A reader backed by one worker thread running the registered adapters, or undefined where there is
 * no compiled worker module beside this one (TypeScript sources run by a test loader, which worker
 * threads do not inherit, or a single-file bundle): those scan in this thread. If the worker dies, the
 * files it held and every later file are read in this thread instead: a scan never loses a file.
 */
export function workerReader(count = 1): SourceReader | undefined {
  const url = new URL("./readWorker.js", import.meta.url);
  if (!import.meta.url.endsWith(".js") || url.protocol !== "file:" || !existsSync(fileURLToPath(url))) return undefined;
  const workers = Array.from({ length: Math.max(1, count) }, () => new Worker(url));
  const pending = new Map<
    number,
    {
      adapter: SourceAdapter;
      request: ReadRequest;
      resolve: (read: SourceRead) => void;
      reject: (error: Error) => void;
    }
  >();
  let next = 0;
  let broken = false;
  const onMessage = (message: { id: number; read?: SourceRead; error?: string }) => {
    const waiting = pending.get(message.id);
    pending.delete(message.id);
    if (!waiting) return;
    if (message.read) {
      for (const parsed of message.read.result.sessions) {
        for (const item of parsed.items) if (item.origin.file === "") item.origin.file = waiting.request.file.path;
      }
      waiting.resolve(message.read);
    } else waiting.reject(new Error(message.error ?? "worker failed"));
  };
  const fallBack = () => {
    if (broken) return;
    broken = true;
    for (const waiting of pending.values())
      readSource(waiting.adapter, waiting.request).then(waiting.resolve, waiting.reject);
    pending.clear();
  };
  for (const worker of workers) {
    worker.on("message", onMessage);
    worker.on("error", fallBack);
    worker.on("exit", fallBack);
  }
  return {
    read(adapter, request) {
      if (broken) return readSource(adapter, request);
      const id = next++;
      return new Promise((resolve, reject) => {
        pending.set(id, { adapter, request, resolve, reject });
        workers[id % workers.length]?.postMessage({ id, agent: adapter.agent, request });
      });
    },
    async close() {
      broken = true;
      await Promise.all(workers.map((worker) => worker.terminate()));
    },
  };
}
