import type { Command } from "commander";
import { withCairn } from "../context.js";
import { nonEmpty, wholeNumber } from "../flags.js";
import { invocation } from "../invocation.js";
import { printJson, printLine, shorten } from "../output.js";

interface RecallOptions {
  k?: number;
  scope?: string;
  expand?: boolean;
  includeSuperseded?: boolean;
}

export function registerRecall(program: Command): void {
  program
    .command("recall <query>")
    .description("search memory (hybrid keyword + vector); default scope: this project and global")
    // The upper bound is the config's recall.maxK, checked with the other request limits (src/requests/).
    .option("--k <n>", "how many results (default recall.defaultK, at most recall.maxK)", wholeNumber("--k", 1))
    .option(
      "--scope <scope>",
      "project (default), global, all, or any label given to remember",
      nonEmpty("--scope", "project, global, all or a label"),
    )
    .option("--expand", "add each result's source: the transcript items it came from, or the transcript pushed with it")
    .option(
      "--include-superseded",
      "follow each result with the memories it replaced (never ranked, not counted in --k)",
    )
    .option("--json", "print JSON")
    .action(async (query: string, options: RecallOptions, command: Command) => {
      await withCairn(command, async (cairn, global) => {
        const response = await cairn.recall(
          {
            query,
            ...(options.k === undefined ? {} : { k: options.k }),
            cwd: invocation().cwd,
            ...(options.scope ? { scope: options.scope } : {}),
            ...(options.expand ? { expand: true } : {}),
            ...(options.includeSuperseded ? { includeSuperseded: true } : {}),
          },
          { everyScope: "--scope all" },
        );
        if (global.json) return printJson(response);
        if (response.results.length === 0) {
          printLine(response.reason?.message ?? "no memories matched");
          for (const warning of response.warnings) printLine(`warning: ${warning}`);
          return;
        }
        for (const result of response.results) {
          const source = result.provenance.sessionId
            ? ` session ${result.provenance.sessionId}${result.provenance.itemFrom ? ` items ${result.provenance.itemFrom}-${result.provenance.itemTo}` : ""}`
            : result.ref
              ? ` ref ${result.ref}`
              : "";
          printLine(
            `${result.score.toFixed(2)}  #${result.id} [${result.type}, ${shorten(result.scope, 40)}${source}]`,
          );
          printLine(`      ${shorten(result.content, 300)}`);
          if (result.doubted)
            printLine(
              `        may be out of date: #${result.doubted.newer} is newer (review flag #${result.doubted.flag}; cairn memory review)`,
            );
          for (const item of result.evidence ?? []) printLine(`        > ${item.role}: ${shorten(item.text, 200)}`);
          if (result.transcript)
            printLine(
              `        transcript (${result.transcript.content.length} characters, whole with --json): ${shorten(result.transcript.content, 200)}`,
            );
          for (const old of result.superseded ?? []) {
            const day = new Date(old.supersededAt).toISOString().slice(0, 10);
            printLine(`        #${old.id} superseded ${day} by #${old.supersededBy}: ${shorten(old.content, 240)}`);
          }
        }
        for (const warning of response.warnings) printLine(`warning: ${warning}`);
      });
    });
}
