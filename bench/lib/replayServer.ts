import { createHash } from "node:crypto";
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";

/**
 * The kinds of model call cairn makes, read from the request's JSON Schema name (the names
 * src/pipeline gives them) and, for stage 1, from the window note of the prompt.
 */
export type CallKind = "stage1" | "consolidation" | "structural" | "decisions" | "other";

const KIND_BY_SCHEMA: Record<string, CallKind> = {
  stage1_memory: "stage1",
  memory_workspace: "consolidation",
  structural_classify: "structural",
  fact_decisions: "decisions",
};

/** One request as the replay server saw it (a line of the log). */
export interface ReplayRequest {
  at: string;
  hash: string;
  kind: CallKind;
  schema: string | null;
  /** "part 2 of 3" for a window of a long session, null otherwise. */
  window: string | null;
  answered: boolean;
  promptChars: number;
  /** The request's messages as sent (kept in memory, not written to the log). */
  messages: readonly ChatMessage[];
}

export interface ReplayServer {
  /** Base URL for an OpenAI-compatible client ("http://127.0.0.1:<port>/v1"). */
  baseUrl: string;
  /** Every request served so far, in order. */
  readonly requests: readonly ReplayRequest[];
  close(): Promise<void>;
}

export interface ChatMessage {
  role: string;
  content: string;
}

/**
 * What makes two runs' identical requests differ, made fixed: the random boundary of every quoted data
 * section (`<<<SESSION DATA 1a2b...>>>`, `<<<END MEMORY SO FAR ...>>>`, quoteAsData's and the templates'
 * markers: six random bytes in hex) and the evaluator's temporary folder (`.../cairn-session-quality-XXXXXX`).
 */
export function normaliseText(text: string): string {
  return text
    .replace(/<<<(END )?([A-Z][A-Z ]*?) [0-9a-f]{12}>>>/g, (_m, end: string | undefined, label: string) => {
      return `<<<${end ?? ""}${label} BOUNDARY>>>`;
    })
    .replace(/(?:\/[\w.@+-]+)*\/cairn-session-quality-[A-Za-z0-9]{6}/g, "<RUN-DIR>");
}

/** The answer file's name for a request: sha256 of its normalised messages. */
export function requestHash(messages: readonly ChatMessage[]): string {
  const normalised = messages.map((message) => ({ role: message.role, content: normaliseText(message.content) }));
  return createHash("sha256").update(JSON.stringify(normalised)).digest("hex");
}

function callKind(schema: string | null): CallKind {
  return (schema && KIND_BY_SCHEMA[schema]) || "other";
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * The text an answer file holds as the model's message content: a JSON object is sent as JSON text
 * (what a model with structured output returns); a file holding a JSON string sends that string as is.
 */
function answerContent(file: string): string {
  const parsed = JSON.parse(readFileSync(file, "utf8")) as unknown;
  return typeof parsed === "string" ? parsed : JSON.stringify(parsed);
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}

/**
 * An OpenAI-compatible chat-completions server on 127.0.0.1 that replays answers written ahead:
 * `answersDir/<hash>.json` answers the request whose normalised messages hash to `<hash>`. A request
 * with no answer gets HTTP 503 (a provider outage to cairn, which retries the job on a later run) and
 * is saved whole, readable, as `pendingDir/<hash>.json`, so a person or another model can write its
 * answer. Every request is appended to `logFile` as one JSON line.
 */
export async function startReplayServer(options: {
  answersDir: string;
  pendingDir: string;
  logFile: string;
}): Promise<ReplayServer> {
  const { answersDir, pendingDir, logFile } = options;
  mkdirSync(answersDir, { recursive: true });
  mkdirSync(pendingDir, { recursive: true });
  const requests: ReplayRequest[] = [];
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const raw = await readBody(req);
    if (req.method === "GET" && req.url?.endsWith("/models")) {
      send(res, 200, { object: "list", data: [{ id: "standin", object: "model", owned_by: "replay" }] });
      return;
    }
    if (req.method !== "POST" || !req.url?.endsWith("/chat/completions")) {
      send(res, 404, { error: { message: `no route ${req.method} ${req.url}`, type: "not_found" } });
      return;
    }
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      send(res, 400, { error: { message: "the body is not JSON", type: "invalid_request_error" } });
      return;
    }
    const messages = (Array.isArray(body.messages) ? body.messages : []) as ChatMessage[];
    const hash = requestHash(messages);
    const format = body.response_format as { json_schema?: { name?: string } } | undefined;
    const schema = format?.json_schema?.name ?? null;
    const prompt = messages.map((message) => message.content).join("\n");
    const window = /This is part (\d+ of \d+) of the session/.exec(prompt)?.[1] ?? null;
    const answerFile = join(answersDir, `${hash}.json`);
    const answered = existsSync(answerFile);
    const entry: ReplayRequest = {
      at: new Date().toISOString(),
      hash,
      kind: callKind(schema),
      schema,
      window,
      answered,
      promptChars: prompt.length,
      messages,
    };
    requests.push(entry);
    appendFileSync(logFile, `${JSON.stringify({ ...entry, messages: undefined })}\n`);
    if (!answered) {
      // The request as sent, plus what the answer file must be named and what kind of call it is.
      writeFileSync(
        join(pendingDir, `${hash}.json`),
        `${JSON.stringify({ hash, kind: entry.kind, window, answerFile, request: body }, null, 1)}\n`,
      );
      send(res, 503, { error: { message: `no answer yet: write ${answerFile}`, type: "unavailable" } });
      return;
    }
    let content: string;
    try {
      content = answerContent(answerFile);
    } catch (error) {
      send(res, 500, { error: { message: `${answerFile}: ${(error as Error).message}`, type: "server_error" } });
      return;
    }
    send(res, 200, {
      id: `chatcmpl-${hash.slice(0, 24)}`,
      object: "chat.completion",
      created: Math.floor(Date.now() / 1000),
      model: typeof body.model === "string" ? body.model : "standin",
      choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
      // Rough counts (4 characters a token): enough for cairn's cost lines, not a tokenizer.
      usage: { prompt_tokens: Math.ceil(prompt.length / 4), completion_tokens: Math.ceil(content.length / 4) },
    });
  };
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) send(res, 500, { error: { message: String(error), type: "server_error" } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
