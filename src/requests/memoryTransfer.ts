import { z } from "zod";
import { lazily } from "../util/lazily.js";
import { cwd, flag, request, scope } from "./fields.js";
import { issueMessage, overLimit } from "./issueMessage.js";
import { requestLimits } from "./limits.js";
import { memoryId } from "./memoryId.js";
import { rememberFields } from "./remember.js";

/** What names an export file and the version of its lines: the first line of every file. */
export const EXPORT_FORMAT = "cairn-memories";
export const EXPORT_VERSION = 1;

/** An export: `scope` as in recall (default: the project of `cwd` plus global); `all` adds forgotten and replaced memories. */
export const exportRequest = request({ scope: scope.optional(), all: flag.optional(), cwd: cwd.optional() });

/**
 * An export in parts, for a caller that takes a limited text at once (an MCP client): `offset` skips
 * that many memory lines of the export; each part is an export file of its own.
 */
export const exportPartRequest = exportRequest.extend({ offset: z.int({ error: issueMessage }).min(0).optional() });

/** An import: the text of an export file (its JSON lines), stored all or none. */
export const importRequest = request({ text: z.string({ error: issueMessage }).min(1) });

/** The first line of an export file. */
export const exportHeader = lazily(() =>
  z.looseObject(
    { format: z.literal(EXPORT_FORMAT, { error: issueMessage }), version: z.int({ error: issueMessage }) },
    { error: issueMessage },
  ),
);

const epochMs = z.int({ error: issueMessage }).min(0);
const optionalText = z.string({ error: issueMessage }).nullable();

/** One event of a memory's history, as exported. */
const historyLine = () =>
  request({
    event: z.string({ error: issueMessage }).min(1),
    oldContent: optionalText,
    newContent: optionalText,
    who: optionalText,
    reason: optionalText,
    metadata: z.record(z.string(), z.unknown(), { error: issueMessage }).nullable(),
    at: epochMs,
  });

/**
 * One memory line of an export file (version 1): the remember fields (same text checks and limits as
 * every door), plus what only an export carries: its id in the exporting store (the links between
 * lines use it), its state, dates, author, provenance and history. Built on first use
 * (src/util/lazily.ts): every command imports this module with the facade, few read an export.
 */
export const exportedMemory = lazily(() =>
  request({
    id: memoryId,
    content: rememberFields.content,
    type: rememberFields.type.unwrap(),
    scope: rememberFields.scope.unwrap(),
    project: optionalText,
    ref: rememberFields.ref.unwrap().nullable(),
    confidence: z.number({ error: issueMessage }).min(0).max(1),
    importance: z.number({ error: issueMessage }).min(0).max(1),
    occurredAt: epochMs.nullable(),
    createdAt: epochMs,
    updatedAt: epochMs,
    who: optionalText,
    why: optionalText,
    /** Search terms as stored (space-separated words); absent from files written before exports carried them. */
    searchTerms: z
      .string({ error: issueMessage })
      // Every term at its longest with a space between (memory/searchTerms.ts SEARCH_TERMS_CHARS).
      .max(requestLimits.searchTerms * (requestLimits.searchTermChars + 1), {
        error: overLimit("the limit for search terms"),
      })
      .nullable()
      .optional(),
    provenance: request({
      sessionId: z.string({ error: issueMessage }).min(1).optional(),
      itemFrom: z.int({ error: issueMessage }).optional(),
      itemTo: z.int({ error: issueMessage }).optional(),
    }),
    state: z.enum(["live", "superseded", "forgotten"], { error: issueMessage }),
    supersededBy: memoryId.nullable(),
    supersededAt: epochMs.nullable(),
    deletedAt: epochMs.nullable(),
    history: z.array(historyLine(), { error: issueMessage }),
  }),
);

export type ExportedMemory = z.output<ReturnType<typeof exportedMemory>>;
export type ExportedHistoryEvent = ExportedMemory["history"][number];
