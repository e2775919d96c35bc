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
 * A reader backed by one worker thread running the registered adapters, or undefined where the
 * worker's module is not beside this one (a bundled build). If the worker dies, the files it held and
 * every later file are read in this thread instead: a scan never loses a file to the worker.
 */
export function workerReader(): SourceReader | undefined {
  const typescript = import.meta.url.endsWith(".ts");
  const url = new URL(typescript ? "./readWorker.ts" : "./readWorker.js", import.meta.url);
  if (url.protocol !== "file:" || !existsSync(fileURLToPath(url))) return undefined;
  // Under the TypeScript test runner the worker needs the same loader as this thread.
  const worker = new Worker(url, { execArgv: typescript ? ["--import", "tsx"] : [] });
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
  worker.on("message", (message: { id: number; read?: SourceRead; error?: string }) => {
    const waiting = pending.get(message.id);
    pending.delete(message.id);
    if (!waiting) return;
    if (message.read) waiting.resolve(message.read);
    else waiting.reject(new Error(message.error ?? "worker failed"));
  });
  const fallBack = () => {
    if (broken) return;
    broken = true;
    for (const waiting of pending.values())
      readSource(waiting.adapter, waiting.request).then(waiting.resolve, waiting.reject);
    pending.clear();
  };
  worker.on("error", fallBack);
  worker.on("exit", fallBack);
  return {
    read(adapter, request) {
      if (broken) return readSource(adapter, request);
      const id = next++;
      return new Promise((resolve, reject) => {
        pending.set(id, { adapter, request, resolve, reject });
        worker.postMessage({ id, agent: adapter.agent, request });
      });
    },
    async close() {
      broken = true;
      await worker.terminate();
    },
  };
}
