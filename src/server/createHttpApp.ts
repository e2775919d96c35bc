import { createHash, timingSafeEqual } from "node:crypto";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { type Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { getCookie } from "hono/cookie";
import { HTTPException } from "hono/http-exception";
import type { Cairn } from "../cairn.js";
import { HTTP_AGENT_AUTHOR } from "../memory/memoryAuthor.js";
import { projectList } from "../read/projectList.js";
import { redactText } from "../redact/redact.js";
import { explainStoreError } from "../store/storeFault.js";
import { errorMessage } from "../util/errors.js";
import type { TriggerResult } from "../workers/scheduler.js";
import { hostNameOf } from "./bindPolicy.js";
import { createMcpServer, MCP_SERVER_VERSION } from "./createMcpServer.js";
import {
  checkpointBody,
  documentBody,
  documentsBody,
  editBody,
  exportBody,
  forgetBody,
  forgetDocumentBody,
  historyBody,
  importBody,
  ingestBody,
  injectBody,
  projectsBody,
  readBody,
  recallBody,
  rememberBody,
  resolveReviewBody,
  restoreBody,
  reviewBody,
  runBody,
  sessionsBody,
  uiCodeBody,
} from "./httpSchemas.js";
import { readJsonBody } from "./readJsonBody.js";
import { serveUi, UI_PUBLIC_PATHS } from "./serveUi.js";
import { sessionRows } from "./sessionRows.js";
import { statusForError } from "./statusForError.js";
import { UI_COOKIE, UI_HEADER, UiAccess } from "./uiAccess.js";

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

export interface HttpAppOptions {
  cairn: Cairn;
  /**
   * When set, every route but /health and the memory browser's page requires `Authorization: Bearer
   * <token>`, or the memory browser's session cookie with its header (serveUi.ts, uiAccess.ts).
   */
  token?: string;
  maxBodyBytes?: number;
  /**
   * Host names (Host header without the port) the server answers to: the DNS-rebinding defence of a
   * loopback server without a token. Undefined accepts any.
   */
  allowedHostNames?: string[];
  /** Starts a pipeline run in the background (the daemon's scheduler); absent: POST /api/run is 503. */
  triggerRun?: () => TriggerResult;
  /** Extra status of the serving process (scheduler state, last cycle). */
  daemonStatus?: () => Record<string, unknown>;
  /** The cwd MCP tool calls default to; absent, calls about a project must name theirs (as on the REST routes). */
  cwd?: string;
}

/**
 * The JSON HTTP API of `cairn serve`, built as a Hono app so tests call `app.request()` in-process. One
 * error handler maps errors to statuses; no CORS headers are ever sent, so browsers keep other origins
 * out.
 */
export function createHttpApp(options: HttpAppOptions): Hono {
  const { cairn } = options;
  const app = new Hono();

  // Every error body leaves redacted: a message can quote the request (a path, a field's value).
  app.onError((error, c) => {
    if (error instanceof HTTPException) return c.json({ error: redactText(error.message) }, error.status);
    // A damaged page met by any request marks the store, so that no later request writes into it.
    const explained = explainStoreError(error, cairn.paths.database);
    return c.json({ error: redactText(errorMessage(explained).split("\n")[0] ?? "") }, statusForError(explained));
  });
  app.notFound((c) => c.json({ error: redactText(`no route ${c.req.method} ${c.req.path}`) }, 404));

  if (options.allowedHostNames) {
    const allowed = new Set(options.allowedHostNames.map((name) => name.toLowerCase()));
    app.use("*", async (c, next) => {
      const host = hostNameOf(c.req.header("host") ?? new URL(c.req.url).host);
      if (!allowed.has(host)) throw new HTTPException(403, { message: `host ${host} is not served here` });
      await next();
    });
  }
  const uiAccess = options.token ? new UiAccess() : undefined;
  // Requests of a person signed in to the memory browser: see the edit route.
  const signedIn = new WeakSet<Context>();
  if (options.token) {
    const expected = digest(options.token);
    app.use("*", async (c, next) => {
      if (c.req.path === "/health" || (c.req.method === "GET" && UI_PUBLIC_PATHS.has(c.req.path))) return next();
      // The browser's session cookie counts only with the page's header: another origin on this machine
      // (same site for cookies) cannot add that header without a CORS preflight, which is never granted.
      if (c.req.header(UI_HEADER) === "1" && uiAccess?.isSession(getCookie(c, UI_COOKIE))) {
        signedIn.add(c);
        return next();
      }
      const header = c.req.header("authorization") ?? "";
      const given = /^Bearer (.+)$/i.exec(header)?.[1];
      if (!given || !timingSafeEqual(digest(given), expected)) {
        c.header("WWW-Authenticate", 'Bearer realm="cairn"');
        throw new HTTPException(401, { message: "missing or wrong bearer token" });
      }
      await next();
    });
  }
  const maxSize = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  app.use(
    "*",
    bodyLimit({
      maxSize,
      onError: (c) => c.json({ error: `request body is larger than ${maxSize} bytes` }, 413),
    }),
  );

  // A store replaced under this process (`cairn doctor --repair`) is reopened before the request uses it.
  app.use("*", async (_c, next) => {
    cairn.reopenIfReplaced();
    await next();
  });

  app.get("/health", (c) => c.json({ ok: true, version: MCP_SERVER_VERSION }));

  app.get("/api/status", (c) => c.json({ ...cairn.status(), daemon: options.daemonStatus?.() ?? null }));

  app.post("/api/inject", async (c) => {
    const body = await readJsonBody(c, injectBody);
    return c.json(cairn.inject(body.cwd));
  });

  app.post("/api/memory/recall", async (c) => {
    const body = await readJsonBody(c, recallBody(cairn.config.recall.maxK));
    return c.json(await cairn.recall(body));
  });

  app.post("/api/memory/remember", async (c) => {
    const { content, items, scope, ref, type, cwd, ...session } = await readJsonBody(c, rememberBody);
    const shared = {
      ...(scope ? { scope } : {}),
      ...(ref ? { ref } : {}),
      ...(type ? { type } : {}),
      ...(session.occurredAt !== undefined ? { occurredAt: session.occurredAt } : {}),
      ...(session.searchTerms ? { searchTerms: session.searchTerms } : {}),
      ...(session.transcript ? { transcript: session.transcript } : {}),
      ...(session.sessionKey ? { sessionKey: session.sessionKey } : {}),
    };
    const list = (items ?? [{ content: content as string }]).map((item) => ({
      ...shared,
      ...item,
      ...(cwd ? { cwd } : {}),
      // Whoever calls the API (an agent, a connector) is not the user at a prompt: memory/memoryAuthor.ts.
      who: HTTP_AGENT_AUTHOR,
    }));
    return c.json({ results: await cairn.remember(list) });
  });

  app.post("/api/memory/forget", async (c) => c.json(cairn.forgetMemory(await readJsonBody(c, forgetBody))));

  // A person signed in to the memory browser (a session only `cairn ui`'s one-time code gives, on a server
  // with a token) edits as the user, as `cairn memory edit` does; any other caller is an agent's door.
  app.post("/api/memory/edit", async (c) =>
    c.json(await cairn.editMemory(await readJsonBody(c, editBody), signedIn.has(c) ? {} : { who: HTTP_AGENT_AUTHOR })),
  );

  app.post("/api/memory/restore", async (c) => c.json(cairn.restoreMemory(await readJsonBody(c, restoreBody))));

  app.post("/api/memory/review", async (c) => c.json({ flags: cairn.reviews(await readJsonBody(c, reviewBody)) }));

  app.post("/api/memory/review/resolve", async (c) =>
    c.json(await cairn.resolveReview(await readJsonBody(c, resolveReviewBody))),
  );

  app.post("/api/read", async (c) => {
    const body = await readJsonBody(c, readBody);
    return c.json(cairn.readMemory(body.url, body.cwd, body.offset));
  });

  app.post("/api/memory/export", async (c) => c.json(cairn.exportMemories(await readJsonBody(c, exportBody))));

  // An agent's door: the file's statements of the user are stored as this API's notes (memory/importMemories.ts).
  app.post("/api/memory/import", async (c) =>
    c.json(await cairn.importMemories((await readJsonBody(c, importBody)).text, "text", { who: HTTP_AGENT_AUTHOR })),
  );

  app.post("/api/memory/history", async (c) => c.json(cairn.memoryHistory(await readJsonBody(c, historyBody))));
  // A session checkpoint now (docs/operations.md, "Session checkpoints"): `explicit`, or `agent` when an agent asks.
  app.post("/api/checkpoint", async (c) => c.json(await cairn.checkpoint(await readJsonBody(c, checkpointBody))));

  // Documents (docs/operations.md): ingested at once, the statuses it went through in the answer.
  app.post("/api/documents/ingest", async (c) =>
    c.json(await cairn.ingest(await readJsonBody(c, ingestBody), { who: HTTP_AGENT_AUTHOR })),
  );
  app.post("/api/documents", async (c) => c.json({ documents: cairn.documents(await readJsonBody(c, documentsBody)) }));
  app.post("/api/documents/show", async (c) => c.json(cairn.document(await readJsonBody(c, documentBody))));
  app.post("/api/documents/forget", async (c) =>
    c.json(cairn.forgetDocument(await readJsonBody(c, forgetDocumentBody), { who: HTTP_AGENT_AUTHOR })),
  );

  app.post("/api/projects", async (c) => {
    await readJsonBody(c, projectsBody);
    return c.json(
      projectList({
        storage: cairn.storage,
        memoriesRoot: cairn.paths.memories,
        config: cairn.config,
        now: Date.now(),
      }),
    );
  });

  app.post("/api/sessions", async (c) => c.json({ sessions: sessionRows(cairn, await readJsonBody(c, sessionsBody)) }));

  // `cairn ui` holds the token and asks for a one-time code the browser exchanges for a session cookie;
  // without a token the page needs none.
  app.post("/api/ui/code", async (c) => {
    await readJsonBody(c, uiCodeBody);
    return c.json({ code: uiAccess?.mintCode() ?? null });
  });

  serveUi(app, uiAccess);

  app.post("/api/run", async (c) => {
    const body = await readJsonBody(c, runBody);
    if (!options.triggerRun) throw new HTTPException(503, { message: "this server runs no background pipeline" });
    // Before the cycle is triggered, so that cycle already takes them.
    const retried = body.retryDead ? cairn.retryDead() : undefined;
    return c.json({ accepted: true, ...options.triggerRun(), ...(retried ? { retried } : {}) }, 202);
  });

  app.post("/mcp", async (c) => {
    // Stateless streamable HTTP: one server and transport per request, JSON responses, no sessions.
    const server = createMcpServer(cairn, options.cwd ? { cwd: options.cwd } : {});
    const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true });
    await server.connect(transport);
    try {
      return await transport.handleRequest(c.req.raw);
    } finally {
      await server.close();
    }
  });
  app.on(["GET", "DELETE"], "/mcp", (c) =>
    c.json({ error: "this MCP endpoint is stateless: POST JSON-RPC requests only" }, 405),
  );

  return app;
}

/** Fixed-length digests, so comparing them takes the same time whatever the token's length. */
function digest(token: string): Buffer {
  return createHash("sha256").update(token).digest();
}
