import { resolve } from "node:path";
import type { Command } from "commander";
import type { IngestReport } from "../../cairn.js";
import { describeIngest, documentLine, forgetLine } from "../../memory/documents/describeIngest.js";
import { looksLikeUrl } from "../../memory/documents/documentSources.js";
import { withCairn } from "../context.js";
import { nonEmpty, wholeNumber } from "../flags.js";
import { invocation } from "../invocation.js";
import { inline, printJson, printLine, quoted } from "../output.js";

/** `cairn ingest <file|dir|url>` and `cairn documents [show <id> | forget <id>]`. */
export function registerIngest(program: Command): void {
  program
    .command("ingest <source>")
    .description(
      "feed a document in: a Markdown, text or JSON file, every such file of a folder, or an http(s) URL; its chunks become memories recall finds",
    )
    .option(
      "--scope <scope>",
      "project (default: the current project), global, or any label",
      nonEmpty("--scope", "project, global or a label"),
    )
    .option("--json", "print JSON")
    .action(async (source: string, options: { scope?: string }, command: Command) => {
      const { cwd } = invocation();
      const target = looksLikeUrl(source) ? { url: source } : { path: resolve(cwd, source) };
      await withCairn(command, async (cairn, global) => {
        const report = await cairn.ingest(
          { ...target, cwd, ...(options.scope ? { scope: options.scope } : {}) },
          // Each status as it is reached, so a long fetch or a large folder shows where it is.
          global.json ? {} : { onStatus: ({ id, status }) => printLine(`document #${id}: ${status}`) },
        );
        if (global.json) return printJson(report);
        printIngest(report);
      });
    });

  const documents = program
    .command("documents")
    .description("the documents fed in with cairn ingest (this project and global by default); show or forget one")
    .option(
      "--scope <scope>",
      "project (default: this project and global), global, all, or a label",
      nonEmpty("--scope", "project, global, all or a label"),
    )
    .option("--json", "print JSON")
    .action(async (options: { scope?: string }, command: Command) => {
      await withCairn(command, async (cairn, global) => {
        const list = cairn.documents({ cwd: invocation().cwd, ...(options.scope ? { scope: options.scope } : {}) });
        if (global.json) return printJson(list);
        if (list.length === 0) return printLine("no documents: add one with cairn ingest <file|dir|url>");
        for (const document of list) printLine(documentLine(document));
      });
    });

  documents
    .command("show")
    .description("one document: its status, its last error, and its chunks' memory ids")
    .argument("<id>", "the document's id (cairn documents lists them)", wholeNumber("id", 1))
    .option("--json", "print JSON")
    .action(async (id: number, _options: unknown, command: Command) => {
      await withCairn(command, async (cairn, global) => {
        const document = cairn.document({ id });
        if (global.json) return printJson(document);
        printLine(`document #${document.id}: ${inline(document.title ?? document.source)}`);
        printLine(`  source: ${inline(document.source)} (${document.sourceType})`);
        printLine(`  scope:  ${inline(document.scope)}`);
        printLine(
          `  status: ${document.status}${document.error ? ` (last ingest failed: ${quoted(document.error)})` : ""}`,
        );
        const live = document.chunks.filter((chunk) => !chunk.deleted);
        printLine(`  chunks: ${live.length} (memories ${live.map((chunk) => `#${chunk.memoryId}`).join(" ") || "-"})`);
      });
    });

  documents
    .command("forget")
    .description(
      "forget a document: its chunks are tombstoned (memory restore brings one back), except one another document holds, and it leaves the list",
    )
    .argument("<id>", "the document's id (cairn documents lists them)", wholeNumber("id", 1))
    .option("--reason <text>", "why, kept in each chunk's history", nonEmpty("--reason", "a non-empty reason"))
    .option("--json", "print JSON")
    .action(async (id: number, options: { reason?: string }, command: Command) => {
      await withCairn(command, async (cairn, global) => {
        const result = cairn.forgetDocument({ id, ...(options.reason ? { reason: options.reason } : {}) });
        if (global.json) return printJson(result);
        printLine(forgetLine(result));
      });
    });
}

function printIngest(report: IngestReport): void {
  for (const line of describeIngest(report)) printLine(line);
  if (report.failed.length > 0) process.exitCode = 1;
}
