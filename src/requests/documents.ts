import { z } from "zod";
import { cwd, request, scope, text } from "./fields.js";
import { issueMessage } from "./issueMessage.js";
import { requestLimits } from "./limits.js";
import { changeReason, memoryId } from "./memoryId.js";

/**
 * Feeds a document in (`cairn ingest`, POST /api/documents/ingest, the MCP `ingest_document` tool): a
 * file or folder (`path`: the CLI's door, which runs as the user), an http(s) `url`, or a text given as
 * it is (`content`, named by `title`: a later ingest with the same title in the same scope replaces
 * it). `scope` as in remember: the project of `cwd` by default, `global` or any label.
 */
export const ingestRequest = request({
  path: text(4096, "the limit for a path").optional(),
  url: text(8192, "the limit for a URL").optional(),
  content: text(requestLimits.transcriptChars, "the limit for a document given as text").optional(),
  title: text(requestLimits.refChars, "the limit for a title").optional(),
  scope: scope.optional(),
  cwd: cwd.optional(),
}).superRefine((body, ctx) => {
  const given = [body.path, body.url, body.content].filter((value) => value !== undefined).length;
  if (given !== 1)
    ctx.addIssue({ code: "custom", path: ["url"], message: "give one of path, url or content (exactly one)" });
  if (body.content !== undefined && body.title === undefined)
    ctx.addIssue({
      code: "custom",
      path: ["title"],
      message: "title is required with content (it names the document; an ingest with the same title replaces it)",
    });
});

/** The documents of a scope (as in recall: default the project of `cwd` plus global), newest first. */
export const documentsRequest = request({
  scope: scope.optional(),
  cwd: cwd.optional(),
  limit: z.int({ error: issueMessage }).min(1).max(10_000).optional(),
});

/** A document's id (ids are global, like memories'). */
export const documentId = memoryId;

/** Forgets a document: its chunks are tombstoned (their history kept) and it leaves the list. */
export const forgetDocumentRequest = request({ id: documentId, reason: changeReason });

/** One document with its status and its chunks' memory ids. */
export const documentRequest = request({ id: documentId });
