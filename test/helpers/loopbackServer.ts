import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One request as the server saw it. */
export interface RecordedRequest {
  method: string;
  /** Path and query, e.g. "/v1/chat/completions". */
  path: string;
  /** Lower-cased header names, as Node gives them. */
  headers: IncomingHttpHeaders;
  /** The raw body text. */
  text: string;
  /** The body parsed as JSON; undefined when it is empty or not JSON. */
  body: unknown;
}

/** What a handler may return instead of writing to `res` itself; `body` objects are sent as JSON. */
export interface LoopbackReply {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
}

/**
 * Answers one request: return a reply, or write to `res` directly (for slow, broken or never-ending
 * answers: `res.socket?.destroy()` resets the connection, never calling `res.end()` hangs it).
 */
export type LoopbackHandler = (
  request: RecordedRequest,
  res: ServerResponse,
) => LoopbackReply | undefined | Promise<LoopbackReply | undefined>;

export interface LoopbackServer {
  /** "http://127.0.0.1:<port>", no trailing slash. */
  url: string;
  requests: RecordedRequest[];
  /** Swaps the handler, for tests that need different answers per case on one server. */
  setHandler(handler: LoopbackHandler): void;
  /** Stops the server and drops open connections (including ones a handler left hanging). */
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1 with a random port, for testing providers against their wire format. */
export async function startLoopbackServer(handler: LoopbackHandler): Promise<LoopbackServer> {
  const requests: RecordedRequest[] = [];
  let current = handler;
  const server = createServer((req, res) => {
    readBody(req)
      .then(async (text) => {
        const recorded = record(req, text);
        requests.push(recorded);
        const reply = await current(recorded, res);
        if (reply !== undefined) sendReply(res, reply);
      })
      .catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
        res.end(`loopback handler failed: ${error instanceof Error ? error.message : String(error)}`);
      });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    setHandler: (next) => {
      current = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Shorthand for a JSON reply. */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): LoopbackReply {
  return { status, headers, body };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function record(req: IncomingMessage, text: string): RecordedRequest {
  let body: unknown;
  try {
    body = text === "" ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { method: req.method ?? "GET", path: req.url ?? "/", headers: req.headers, text, body };
}

function sendReply(res: ServerResponse, reply: LoopbackReply): void {
  const isText = typeof reply.body === "string";
  const payload = reply.body === undefined ? "" : isText ? (reply.body as string) : JSON.stringify(reply.body);
  res.writeHead(reply.status ?? 200, {
    "content-type": isText ? "text/plain" : "application/json",
    ...reply.headers,
  });
  res.end(payload);
}
