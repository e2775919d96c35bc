import { isAbsolute } from "node:path";
import type { z } from "zod";
import { checkpointRequest } from "../requests/checkpoint.js";
import { documentRequest, documentsRequest, forgetDocumentRequest, ingestRequest } from "../requests/documents.js";
import { editRequest } from "../requests/edit.js";
import { emptyRequest } from "../requests/emptyRequest.js";
import { forgetRequest } from "../requests/forget.js";
import { historyRequest } from "../requests/history.js";
import { injectRequest } from "../requests/inject.js";
import { exportRequest, importRequest } from "../requests/memoryTransfer.js";
import { readRequest } from "../requests/read.js";
import { recallRequest } from "../requests/recall.js";
import { rememberRequest } from "../requests/remember.js";
import { restoreRequest } from "../requests/restore.js";
import { reviewListRequest, reviewResolveRequest } from "../requests/review.js";
import { runRequest } from "../requests/run.js";
import { sessionsRequest } from "../requests/sessions.js";

// Request bodies of the HTTP API: each operation's shared request schema (src/requests/, the same limits
// as the CLI, MCP and library) plus the one rule of a server: its own directory is nobody's project, so
// a cwd must be absolute, and is required where the request is about the project of cwd.

const ABSOLUTE = "cwd must be an absolute path";
const PROJECT_NEEDS_CWD = "cwd is required when scope is project (the default)";

function absoluteCwd(body: { cwd?: string | undefined }, ctx: z.RefinementCtx): void {
  if (body.cwd !== undefined && !isAbsolute(body.cwd))
    ctx.addIssue({ code: "custom", path: ["cwd"], message: ABSOLUTE });
}

function cwdForProject(scopes: Array<string | undefined>, body: { cwd?: string | undefined }, ctx: z.RefinementCtx) {
  if (body.cwd === undefined && scopes.some((scope) => (scope ?? "project") === "project")) {
    ctx.addIssue({ code: "custom", path: ["cwd"], message: PROJECT_NEEDS_CWD });
  }
}

export const injectBody = injectRequest.superRefine(absoluteCwd);

/** Built per config: `k` is capped by `recall.maxK`. */
export function recallBody(maxK: number) {
  return recallRequest(maxK).superRefine((body, ctx) => {
    absoluteCwd(body, ctx);
    cwdForProject([body.scope], body, ctx);
  });
}

export const rememberBody = rememberRequest().superRefine((body, ctx) => {
  absoluteCwd(body, ctx);
  const scopes = body.items ? body.items.map((item) => item.scope ?? body.scope) : [body.scope];
  cwdForProject(scopes, body, ctx);
});

export const readBody = readRequest.superRefine((body, ctx) => {
  absoluteCwd(body, ctx);
  if (body.url.trim().startsWith("memory://root") && body.cwd === undefined) {
    ctx.addIssue({ code: "custom", path: ["cwd"], message: "cwd is required for memory://root URLs" });
  }
});

export const runBody = runRequest;

// Changes to one memory name it by id (ids are global): no cwd involved.
export const forgetBody = forgetRequest;
export const editBody = editRequest;
export const restoreBody = restoreRequest;
export const resolveReviewBody = reviewResolveRequest;

export const reviewBody = reviewListRequest.superRefine((body, ctx) => {
  absoluteCwd(body, ctx);
  cwdForProject([body.scope], body, ctx);
});

export const historyBody = historyRequest;

/** A checkpoint of the session named, else of the newest session of the project of an absolute cwd. */
export const checkpointBody = checkpointRequest.superRefine((body, ctx) => {
  absoluteCwd(body, ctx);
  if (body.session === undefined && body.cwd === undefined)
    ctx.addIssue({ code: "custom", path: ["cwd"], message: "cwd is required when no session is named" });
});

/** The memories of a scope with provenance and history, as `cairn export` writes them. */
export const exportBody = exportRequest.superRefine((body, ctx) => {
  absoluteCwd(body, ctx);
  cwdForProject([body.scope], body, ctx);
});

/** The text of an export file, stored all or none (the JSON lines as `cairn export` writes them). */
export const importBody = importRequest;

export const projectsBody = emptyRequest;
export const sessionsBody = sessionsRequest;
export const uiCodeBody = emptyRequest;

/**
 * A document to ingest: a URL, or a text with its title. A path is the CLI's door only: the server may
 * run as another user or be reached by an agent that must not have it read arbitrary files.
 */
export const ingestBody = ingestRequest.superRefine((body, ctx) => {
  absoluteCwd(body, ctx);
  if (body.path !== undefined)
    ctx.addIssue({
      code: "custom",
      path: ["path"],
      message: "path is read by the CLI only (cairn ingest <file>); send a url, or the text as content with a title",
    });
  cwdForProject([body.scope], body, ctx);
});

export const documentsBody = documentsRequest.superRefine((body, ctx) => {
  absoluteCwd(body, ctx);
  cwdForProject([body.scope], body, ctx);
});

export const documentBody = documentRequest;
export const forgetDocumentBody = forgetDocumentRequest;
