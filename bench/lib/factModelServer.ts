import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Worker } from "node:worker_threads";

/** Counts of what the fake model was asked. */
export interface ModelCalls {
  extraction: number;
  decisions: number;
  other: number;
}

export interface FactModelServer {
  /** Base URL for `llm.baseUrl` ("http://127.0.0.1:<port>/v1"). */
  baseUrl: string;
  /** What the model was asked so far. */
  readonly calls: ModelCalls;
  close(): Promise<void>;
}

/**
 * Facts a coding session yields, several per session and overlapping between sessions (the same test
 * command, a port that changes, a cache setting), so later sessions find candidates and need decisions.
 */
function sessionFacts(item: number, session: number): unknown[] {
  const fact = (content: string) => ({ content, type: "fact", confidence: 0.85, evidence: [item] });
  return [
    fact("The project runs its tests with pnpm test"),
    fact(`The API server listens on port ${3000 + (session % 5)} locally`),
    fact(`The module ${session % 7} build uses turbo with remote caching`),
    fact(`Session ${session} migrated the billing module to the new client`),
  ];
}

function stage1Answer(prompt: string, itemsPerSession: number): unknown {
  const item = Number(/"id":(\d+)/.exec(prompt)?.[1] ?? 1);
  const session = Math.floor((item - 1) / itemsPerSession);
  return {
    rollout_summary: "The user migrated the module; tests pass.",
    rollout_slug: "migrate-module",
    raw_memory: "## Procedures\n- pnpm test works",
    facts: sessionFacts(item, session),
    entities: [{ source: "project", relationship: "uses", target: "pnpm", confidence: 0.8 }],
  };
}

/** A port change replaces the stored port; a statement already stored is NONE; anything else ADD. */
function decisionsAnswer(prompt: string): unknown {
  const data = JSON.parse(/<<<MEMORY DATA \w+>>>\n(.*)\n<<<END/s.exec(prompt)?.[1] ?? '{"facts":[]}') as {
    facts: Array<{ fact: number; content: string; candidates: Array<{ id: number; content: string }> }>;
  };
  return {
    decisions: data.facts.map((f) => {
      const same = f.candidates.find((c) => c.content === f.content);
      const port = f.content.includes("port") ? f.candidates.find((c) => c.content.includes("port")) : undefined;
      if (same) return { fact: f.fact, action: "NONE", targetId: null, confidence: 0.9, reason: "already stored" };
      if (port) return { fact: f.fact, action: "UPDATE", targetId: port.id, confidence: 0.9, reason: "port changed" };
      return { fact: f.fact, action: "ADD", targetId: null, confidence: 0.8, reason: "new information" };
    }),
  };
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as Record<string, unknown>;
}

/** Where the counters of what the fake model was asked sit in the shared array. */
const COUNTER = { extraction: 0, decisions: 1, other: 2 } as const;

/**
 * An OpenAI-compatible chat-completions server on 127.0.0.1 that answers after `delayMs`: stage-1
 * extraction with facts, and the batched fact decisions, counted in `counts` (COUNTER order). Runs in
 * the worker `startFactModelServer` starts.
 */
export async function listenFactModel(options: {
  delayMs: number;
  itemsPerSession: number;
  counts: Int32Array;
}): Promise<{ port: number; close(): Promise<void> }> {
  const { delayMs, itemsPerSession, counts } = options;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void readJson(req).then(async (body) => {
      if (req.url?.endsWith("/models")) {
        res.writeHead(200, { "content-type": "application/json" }).end('{"object":"list","data":[]}');
        return;
      }
      const messages = (body.messages ?? []) as Array<{ role: string; content: string }>;
      const prompt = messages.find((m) => m.role === "user")?.content ?? "";
      const schema = (body.response_format as { json_schema?: { name?: string } } | undefined)?.json_schema?.name;
      let answer: unknown;
      if (schema === "fact_decisions") {
        Atomics.add(counts, COUNTER.decisions, 1);
        answer = decisionsAnswer(prompt);
      } else if (schema === "stage1_memory") {
        Atomics.add(counts, COUNTER.extraction, 1);
        answer = stage1Answer(prompt, itemsPerSession);
      } else {
        Atomics.add(counts, COUNTER.other, 1);
        answer = {};
      }
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      const content = JSON.stringify(answer);
      res.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          choices: [{ message: { role: "assistant", content }, finish_reason: "stop" }],
          usage: { prompt_tokens: Math.round(prompt.length / 4), completion_tokens: 120 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Starts the fake model in a worker thread: a real provider runs elsewhere, so parsing the requests
 * and writing the answers must not take the main thread the benchmark measures cairn on.
 */
export async function startFactModelServer(options: {
  delayMs: number;
  itemsPerSession: number;
}): Promise<FactModelServer> {
  const counts = new Int32Array(new SharedArrayBuffer(3 * Int32Array.BYTES_PER_ELEMENT));
  // The worker loads TypeScript through tsx's loader, registered in the worker itself.
  const entry = new URL("./factModelWorker.ts", import.meta.url).href;
  const worker = new Worker(
    `import("tsx/esm/api").then(({ register }) => { register(); return import(${JSON.stringify(entry)}); });`,
    { eval: true, workerData: { ...options, counts } },
  );
  const port = await new Promise<number>((resolve, reject) => {
    worker.once("message", (message: { port: number }) => resolve(message.port));
    worker.once("error", reject);
  });
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    get calls(): ModelCalls {
      return {
        extraction: Atomics.load(counts, COUNTER.extraction),
        decisions: Atomics.load(counts, COUNTER.decisions),
        other: Atomics.load(counts, COUNTER.other),
      };
    },
    close: async () => {
      const exited = new Promise((resolve) => worker.once("exit", resolve));
      worker.postMessage("close");
      await exited;
    },
  };
}
