import type { DocumentRecord } from "../../store/contracts/documents.js";
import type { DocumentOutcome } from "./documentIngest.js";
import type { ForgetDocumentResult } from "./forgetDocument.js";

/** What an ingest did, one line per document, the same on the CLI and over MCP. */
export function describeIngest(report: {
  documents: DocumentOutcome[];
  failed: Array<{ id: number; source: string; error: string }>;
  queued: number[];
}): string[] {
  const lines = report.documents.map(outcomeLine);
  for (const failed of report.failed) lines.push(`refused: ${oneLine(failed.error)}`);
  for (const id of report.queued)
    lines.push(
      `document #${id}: queued; another cairn process is ingesting a document now, and the documents worker (cairn serve, or the next cairn run) takes this one`,
    );
  const warnings = new Set(report.documents.flatMap((document) => document.warnings ?? []));
  for (const warning of warnings) lines.push(`warning: ${warning}`);
  return lines;
}

/** A document in a list: id, status (and the last failure), chunks, title and source. */
export function documentLine(document: DocumentRecord): string {
  const failed = document.error ? ` (last ingest failed: ${oneLine(document.error)})` : "";
  return `#${document.id} ${document.status}${failed}, ${chunks(document.chunkCount)}: ${oneLine(document.title ?? "-")} (${oneLine(document.source)})`;
}

function outcomeLine(document: DocumentOutcome): string {
  const title = oneLine(document.title ?? document.source);
  const what =
    document.added === 0 && document.removed === 0
      ? `${chunks(document.chunks)}, unchanged`
      : `${chunks(document.chunks)} (${document.added} new, ${document.kept} kept, ${document.removed} removed)`;
  const withheld =
    document.withheld > 0 ? `; ${document.withheld} withheld: worded as instructions to an AI agent` : "";
  return `ingested #${document.id} ${title} into ${oneLine(document.scope)}: ${what}${withheld}`;
}

/** What `documents forget` did, the same on the CLI and over MCP. */
export function forgetLine(result: ForgetDocumentResult): string {
  const holders = result.kept === 1 ? "another document holds it" : "other documents hold them";
  const kept = result.kept > 0 ? `; ${chunks(result.kept)} kept: ${holders}` : "";
  return `forgot document #${result.id} (${oneLine(result.source)}): ${chunks(result.forgotten)} tombstoned${kept}`;
}

/** "1 chunk", "3 chunks". */
export function chunks(count: number): string {
  return `${count} chunk${count === 1 ? "" : "s"}`;
}

/** A value from data inside a line: its line breaks shown as `\n`, so it cannot print a line of its own. */
function oneLine(text: string): string {
  return text.replace(/\r\n|\r|\n/g, "\\n");
}
