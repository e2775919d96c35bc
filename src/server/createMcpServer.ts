import { isAbsolute } from "node:path";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Cairn } from "../cairn.js";
import { describeIngest, documentLine, forgetLine } from "../memory/documents/describeIngest.js";
import { importSummary } from "../memory/importMemories.js";
import { MCP_AGENT_AUTHOR } from "../memory/memoryAuthor.js";
import { GLOBAL_SCOPE } from "../memory/scopes.js";
import { checkpointRequest } from "../requests/checkpoint.js";
import { documentsRequest, forgetDocumentRequest, ingestRequest } from "../requests/documents.js";
import { editRequest } from "../requests/edit.js";
import { emptyRequest } from "../requests/emptyRequest.js";
import { forgetRequest } from "../requests/forget.js";
import { exportPartRequest, importRequest } from "../requests/memoryTransfer.js";
import { readRequest } from "../requests/read.js";
import { recallRequest } from "../requests/recall.js";
import { rememberFields } from "../requests/remember.js";
import { restoreRequest } from "../requests/restore.js";
import { reviewListRequest, reviewResolveRequest } from "../requests/review.js";
import { nativeModuleFault } from "../store/nativeModuleFault.js";
import { explainStoreError } from "../store/storeFault.js";
import { withoutControls } from "../text/controlCharacters.js";
import { CairnError, errorMessage } from "../util/errors.js";
import { formatExportPart } from "./formatExportPart.js";
import { formatReadPart } from "./formatReadPart.js";
import {
  fitToolText,
  formatChange,
  formatRecall,
  formatRemember,
  formatReviews,
  toolTextBudget,
} from "./formatToolText.js";
import { RedactingMcpServer } from "./redactingMcpServer.js";

export const MCP_SERVER_NAME = "cairn";
export const MCP_SERVER_VERSION = "0.1.0";

export interface McpServerOptions {
  /**
   * The directory whose project is "this project" when a call names no cwd: the agent's directory for
   * `cairn mcp` on stdio. Absent for the daemon's `/mcp`, whose own directory is nobody's project: calls
   * about a project must then name an absolute cwd, as the REST routes require.
   */
  cwd?: string;
}

// Tool input schemas are the operations' shared request fields (src/requests/): the same limits and
// messages as the CLI, HTTP and the library, checked by the MCP SDK before a call reaches cairn.

/** What a listing tool's `scope` takes. */
const SCOPE_LIST = "project (this project and global, the default), global, all, or a label";

const cwdField = readRequest.shape.cwd.describe(
  "absolute directory whose project is meant (default for stdio: the directory the server was started in)",
);

/**
 * The MCP face of cairn: recall, remember, read and status over one Cairn instance. Each call's failure
 * comes back as a tool error with the one-line message, so an agent sees why and the server lives on.
 */
export function createMcpServer(cairn: Cairn, options: McpServerOptions): McpServer {
  // Its error answers leave redacted (RedactingMcpServer), the SDK's own included.
  const server = new RedactingMcpServer({ name: MCP_SERVER_NAME, version: MCP_SERVER_VERSION });
  const guard = guardFor(server, cairn);
  const { defaultK, maxK } = cairn.config.recall;
  const recallFields = recallRequest(maxK).shape;

  server.registerTool(
    "recall",
    {
      title: "Recall memories",
      description:
        "Search cairn's memory (preferences, decisions, workflows and pitfalls remembered from past sessions) " +
        "with hybrid keyword and vector search. Memory is heuristic context: check it against the repository " +
        "before acting on it.",
      inputSchema: {
        query: recallFields.query.describe("what to look for, in plain words"),
        k: recallFields.k.describe(`how many results (default ${Math.min(defaultK, maxK)}, at most ${maxK})`),
        scope: recallFields.scope.describe(
          "project (this project and global, the default), global, all, or a label given to remember",
        ),
        includeSuperseded: recallFields.includeSuperseded.describe(
          "also show, under each result, the older memories it replaced (history; they are no longer true)",
        ),
        expand: recallFields.expand.describe(
          "also show where each result came from: the session items it was extracted from, or the beginning of the conversation pushed with it",
        ),
        cwd: cwdField,
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      guard(async () => {
        const cwd = callCwd(args.cwd, options.cwd, scopeNeedsCwd(args.scope));
        const response = await cairn.recall({ ...args, cwd });
        return formatRecall(args.query, response);
      }, RECALL_REST),
  );

  server.registerTool(
    "remember",
    {
      title: "Remember",
      description:
        "Store a durable memory for future sessions: use it when the user asks you to remember something, or " +
        "for a decision or fact that will clearly matter again. One self-contained statement per call. Later " +
        "sessions see it as saved by an agent; one for every project (scope global) waits for the user to confirm it.",
      inputSchema: {
        text: rememberFields.content.describe("the memory, as one self-contained statement"),
        scope: rememberFields.scope.describe(
          "project (the default: this project), global (every project), or any label",
        ),
        type: rememberFields.type.describe("kind of memory (default fact)"),
        searchTerms: rememberFields.searchTerms.describe(
          'optional: words a later question may use that the text does not (synonyms, abbreviations, the general category), e.g. ["package manager", "dependencies"]',
        ),
        transcript: rememberFields.transcript.describe(
          "optional: the raw conversation the memory comes from, kept whole beside it (needs sessionKey)",
        ),
        sessionKey: rememberFields.sessionKey.describe("the session the memory and its transcript come from"),
        cwd: cwdField,
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args) =>
      guard(async () => {
        const cwd = callCwd(args.cwd, options.cwd, scopeNeedsCwd(args.scope));
        const [outcome] = await cairn.remember({
          content: args.text,
          // The agent's note, not the user's statement: see src/memory/memoryAuthor.ts.
          who: MCP_AGENT_AUTHOR,
          ...(cwd ? { cwd } : {}),
          ...(args.scope ? { scope: args.scope } : {}),
          ...(args.type ? { type: args.type } : {}),
          ...(args.searchTerms ? { searchTerms: args.searchTerms } : {}),
          ...(args.transcript ? { transcript: args.transcript } : {}),
          ...(args.sessionKey ? { sessionKey: args.sessionKey } : {}),
        });
        return formatRemember(outcome, { heldForUser: args.scope === GLOBAL_SCOPE });
      }),
  );

  server.registerTool(
    "read",
    {
      title: "Read a memory file",
      description:
        "Read a memory file by URL: memory://root (this project's summary), memory://root/MEMORY.md (its " +
        "long-term memory), memory://root/skills/<name>/SKILL.md (a skill), memory://global/... (the global " +
        "workspace), or any other file of the workspace by its relative path.",
      inputSchema: {
        url: readRequest.shape.url.describe("a memory:// URL"),
        offset: readRequest.shape.offset.describe(
          "start at this character (a long file comes in parts; each part says where the next starts)",
        ),
        cwd: cwdField,
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      guard(async () => {
        const projectUrl = args.url.trim().startsWith("memory://root");
        const offset = args.offset ?? 0;
        const file = cairn.readMemory(
          args.url,
          callCwd(args.cwd, options.cwd, projectUrl ? "for memory://root URLs" : undefined),
          offset,
        );
        // Cut here, after the controls are replaced, so the part fits as sent and the offset it names is the file's.
        return formatReadPart(file, toolTextBudget(server.server.getClientVersion()?.name));
      }, READ_REST),
  );

  registerCurationTools(server, cairn, options, guard);
  registerTransferTools(server, cairn, options, guard);
  registerDocumentTools(server, cairn, options, guard);

  server.registerTool(
    "checkpoint",
    {
      title: "Checkpoint this session",
      description:
        "Save a checkpoint of the session now (latest requests, commands and outcomes, files written, open work), " +
        "e.g. before a long step or when the user asks; the next session after a compaction or a clear starts with it.",
      inputSchema: {
        session: checkpointRequest.shape.session.describe("the session's id, when the agent knows it"),
        cwd: cwdField,
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    (args) =>
      guard(async () => {
        const cwd = callCwd(args.cwd, options.cwd, args.session ? undefined : "to find the session of this project");
        const outcome = await cairn.checkpoint({
          trigger: "agent",
          ...(args.session ? { session: args.session } : {}),
          ...(cwd ? { cwd } : {}),
        });
        return outcome.written ? outcome.record.digest : `no checkpoint written: ${outcome.reason}`;
      }),
  );

  server.registerTool(
    "status",
    {
      title: "Memory pipeline status",
      description: "What cairn holds and is doing: sessions, pending extraction, jobs, last consolidation.",
      inputSchema: emptyRequest.shape,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    () => guard(async () => JSON.stringify(cairn.status(), null, 2)),
  );

  return server;
}

/**
 * The tools a person uses to keep memory true: review what was flagged, forget, edit or restore one
 * memory by id (ids are global). Each change makes the next pipeline run rebuild the workspaces.
 */
function registerCurationTools(server: McpServer, cairn: Cairn, options: McpServerOptions, guard: Guard): void {
  const idField = forgetRequest.shape.id.describe("the memory's id (recall shows it)");
  const reasonField = forgetRequest.shape.reason.describe("why, kept in the memory's history");
  const change = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false };

  server.registerTool(
    "review",
    {
      title: "List flagged contradictions",
      description:
        "List memories flagged for review (a newer memory or a proposed fact contradicts them), both sides with " +
        "ids and dates. Show them to the user and let the user decide with resolve_review.",
      inputSchema: {
        scope: reviewListRequest.shape.scope.describe(SCOPE_LIST),
        cwd: cwdField,
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      guard(async () => {
        const cwd = callCwd(args.cwd, options.cwd, scopeNeedsCwd(args.scope));
        return formatReviews(cairn.reviews({ ...(args.scope ? { scope: args.scope } : {}), ...(cwd ? { cwd } : {}) }));
      }, REVIEW_REST),
  );

  server.registerTool(
    "resolve_review",
    {
      title: "Decide a review flag",
      description:
        "Apply the user's decision on a review flag: keep (change nothing), supersede (the newer memory or the " +
        "proposed fact replaces the flagged one) or forget (the flagged memory is forgotten).",
      inputSchema: {
        flag: reviewResolveRequest.shape.flag.describe("the flag's id (review shows it)"),
        action: reviewResolveRequest.shape.action.describe("keep, supersede or forget"),
      },
      annotations: change,
    },
    (args) => guard(async () => formatChange(await cairn.resolveReview(args))),
  );

  server.registerTool(
    "forget",
    {
      title: "Forget a memory",
      description:
        "Forget one memory by id when the user asks to: it leaves recall and the workspaces, its history stays.",
      inputSchema: { id: idField, reason: reasonField },
      annotations: change,
    },
    (args) => guard(async () => formatChange(cairn.forgetMemory(args))),
  );

  server.registerTool(
    "edit",
    {
      title: "Correct a memory",
      description:
        "Replace one memory by id with corrected text and/or type, when the user asks to: the new text is stored " +
        "like remember and supersedes the old one, which stays in the history.",
      inputSchema: {
        id: idField,
        text: editRequest.shape.content.describe("the corrected memory, as one self-contained statement"),
        type: editRequest.shape.type.describe("the new kind of memory"),
        reason: reasonField,
      },
      annotations: change,
    },
    (args) =>
      guard(async () => {
        const { text, ...rest } = args;
        return formatChange(await cairn.editMemory({ ...rest, content: text }, { who: MCP_AGENT_AUTHOR }));
      }),
  );

  server.registerTool(
    "restore",
    {
      title: "Restore a memory",
      description: "Bring back a forgotten or replaced memory by id.",
      inputSchema: { id: restoreRequest.shape.id.describe("the memory's id"), reason: reasonField },
      annotations: { ...change, destructiveHint: false },
    },
    (args) => guard(async () => formatChange(cairn.restoreMemory(args))),
  );
}

/**
 * Moving memories between stores: `export` gives an export file's text (in parts that each import by
 * themselves, so no part is cut by the client) and `import` stores one, all or none, as `cairn export`
 * and `cairn import` do. Secrets never leave: the export goes through the same guard as every export.
 */
function registerTransferTools(server: McpServer, cairn: Cairn, options: McpServerOptions, guard: Guard): void {
  const fields = exportPartRequest.shape;
  server.registerTool(
    "export",
    {
      title: "Export memories",
      description:
        "Export memories as the JSON lines of a cairn export file (a header line, then one memory per line with " +
        "its provenance and history), for the user to keep or move to another cairn with import. Secrets and " +
        "<private> blocks are never exported. A large export comes in parts: the header says the offset of the next.",
      inputSchema: {
        scope: fields.scope.describe(
          "project (this project and global, the default), global, all, or a label given to remember",
        ),
        all: fields.all.describe("also export forgotten and replaced memories, so what replaced what travels too"),
        offset: fields.offset.describe("skip this many memories (the header of a part names the next offset)"),
        cwd: cwdField,
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      guard(async () => {
        const cwd = callCwd(args.cwd, options.cwd, scopeNeedsCwd(args.scope));
        const exported = cairn.exportMemories({
          ...(args.scope ? { scope: args.scope } : {}),
          ...(args.all ? { all: true } : {}),
          ...(cwd ? { cwd } : {}),
        });
        return formatExportPart(exported, args.offset ?? 0, toolTextBudget(server.server.getClientVersion()?.name));
      }),
  );

  server.registerTool(
    "import",
    {
      title: "Import memories",
      description:
        "Store the memories of a cairn export file (its JSON lines, as export gives them), when the user asks to: " +
        "all or none, a bad line is an error naming it and nothing is stored; what is already here is skipped. " +
        "The memories are stored as saved by an agent, for the user to confirm.",
      inputSchema: {
        text: importRequest.shape.text.describe("the export file's text: its header line, then memories"),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args) =>
      guard(async () =>
        importSummary(await cairn.importMemories(args.text, "text", { who: MCP_AGENT_AUTHOR })).join("\n"),
      ),
  );
}

/**
 * Documents (docs/operations.md): ingest a page or a text (its chunks become memories recall finds),
 * list them, forget one with its chunks. A file path is the CLI's door only, as on the HTTP route.
 */
function registerDocumentTools(server: McpServer, cairn: Cairn, options: McpServerOptions, guard: Guard): void {
  const fields = ingestRequest.shape;
  server.registerTool(
    "ingest_document",
    {
      title: "Ingest a document",
      description:
        "Feed a web page (an http or https url) or a text (content with a title) into memory when the user asks " +
        "to: it is cut into chunks that recall finds, labelled with the document. Secrets are redacted. The same " +
        "url or title again replaces the document's chunks; unchanged chunks are kept.",
      inputSchema: {
        url: fields.url.describe("an http or https URL of an HTML, text, Markdown, JSON or XML document"),
        content: fields.content.describe("the document's text, when there is no URL"),
        title: fields.title.describe("the document's title (required with content; it names the document)"),
        scope: fields.scope.describe("project (this project, the default), global, or a label"),
        cwd: cwdField,
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    },
    (args) =>
      guard(async () => {
        // The shared request's message names `path`, which this tool does not take (a path given is dropped).
        if ((args.url === undefined) === (args.content === undefined))
          throw new CairnError(
            "bad_input",
            "give a url, or the text as content with a title (exactly one; a file path is read by the CLI only: cairn ingest <file>)",
          );
        const cwd = callCwd(args.cwd, options.cwd, scopeNeedsCwd(args.scope));
        const report = await cairn.ingest({ ...args, ...(cwd ? { cwd } : {}) }, { who: MCP_AGENT_AUTHOR });
        return describeIngest(report).join("\n");
      }),
  );

  server.registerTool(
    "documents",
    {
      title: "List documents",
      description: "List the documents fed into memory: id, status, chunks, title and source.",
      inputSchema: {
        scope: documentsRequest.shape.scope.describe(SCOPE_LIST),
        cwd: cwdField,
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      guard(async () => {
        const cwd = callCwd(args.cwd, options.cwd, scopeNeedsCwd(args.scope));
        const list = cairn.documents({ ...(args.scope ? { scope: args.scope } : {}), ...(cwd ? { cwd } : {}) });
        return list.length === 0 ? "no documents" : list.map(documentLine).join("\n");
      }),
  );

  server.registerTool(
    "forget_document",
    {
      title: "Forget a document",
      description:
        "Forget one document by id when the user asks to: its chunks leave recall (their history stays), except one another document holds.",
      inputSchema: {
        id: forgetDocumentRequest.shape.id.describe("the document's id (documents lists them)"),
        reason: forgetDocumentRequest.shape.reason.describe("why, kept in each chunk's history"),
      },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    },
    (args) =>
      guard(async () => {
        const result = cairn.forgetDocument(args, { who: MCP_AGENT_AUTHOR });
        return forgetLine(result);
      }),
  );
}

const RECALL_REST = () =>
  "the results after the cut are not shown: ask again with a smaller k, without expand or includeSuperseded, or a narrower query";

const REVIEW_REST = () => "decide the flags shown (resolve_review), then list again for the rest";

/** A read part is cut to fit before the guard sees it; a second cut would be a bug, and still says how to page. */
const READ_REST = () => "call read again with a larger offset for the rest";

/** How to get what a cut result left out, for tools without paging. */
const ASK_LESS = () => "ask for less (a smaller k, one scope) to see the rest";

/** Project scope (the default) is about the project of cwd; the reason it is needed, else undefined. */
function scopeNeedsCwd(scope: string | undefined): string | undefined {
  return (scope ?? "project") === "project" ? "when scope is project (the default)" : undefined;
}

/**
 * The cwd a call works in: its own, else the server's. Without a server cwd (the daemon), a call that is
 * about a project must name an absolute one; `requiredWhen` says why it is needed, undefined if it is not.
 */
function callCwd(given: string | undefined, fallback: string | undefined, requiredWhen: string | undefined) {
  if (fallback !== undefined) return given ?? fallback;
  if (given !== undefined && !isAbsolute(given)) throw new CairnError("bad_input", "cwd must be an absolute path");
  if (given === undefined && requiredWhen) throw new CairnError("bad_input", `cwd is required ${requiredWhen}`);
  return given;
}

/** Runs a tool: its text as the result, or its error as one line; see `guardFor`. */
type Guard = (fn: () => Promise<string>, rest?: (shown: number) => string) => Promise<CallToolResult>;

/**
 * Every tool result of `server` leaves through the guard it returns: memory text goes to an agent as
 * data (nothing in it may act on whatever renders it), and no result is longer than the connected
 * client takes in one piece (`toolTextBudget`, by the name it gave when it connected).
 */
function guardFor(server: McpServer, cairn: Cairn): Guard {
  return async (fn, rest = ASK_LESS) => {
    try {
      // A store replaced under this long-lived server (`cairn doctor --repair`) is reopened first.
      cairn.reopenIfReplaced();
      const budget = toolTextBudget(server.server.getClientVersion()?.name);
      return { content: [{ type: "text", text: fitToolText(withoutControls(await fn()), rest, budget) }] };
    } catch (error) {
      // A damaged page met by any call marks the store, so that no later call writes into it.
      const explained = explainStoreError(error, cairn.paths.database);
      const text = nativeModuleFault(error) ?? errorMessage(explained).split("\n")[0] ?? "error";
      return { isError: true, content: [{ type: "text", text }] };
    }
  };
}
