import type { Command } from "commander";
import { memoryTypes } from "../../memory/types.js";
import { withCairn } from "../context.js";
import { nonEmpty, oneOf } from "../flags.js";
import { printJson, printLine } from "../output.js";

export function registerRemember(program: Command): void {
  program
    .command("remember [text]")
    .description("store a memory now (default scope: the current project; 'global' or any label also work)")
    .option(
      "--scope <scope>",
      "project (default), global, or any label",
      nonEmpty("--scope", "project, global or a label"),
    )
    .option("--ref <ref>", "your provenance label, returned by recall", nonEmpty("--ref", "a non-empty label"))
    .option("--type <type>", `one of ${memoryTypes.join(", ")}`, oneOf("--type", memoryTypes))
    .option(
      "--file <items.jsonl>",
      'bulk: one {"content", "scope"?, "ref"?, "type"?} object per line',
      nonEmpty("--file", "the path of a JSONL file"),
    )
    .option("--json", "print JSON")
    .action(
      async (
        text: string | undefined,
        options: { scope?: string; ref?: string; type?: string; file?: string },
        command: Command,
      ) => {
        // The validation schema library is loaded only when this command runs.
        const { readItems, single } = await import("../rememberInput.js");
        const inputs = options.file
          ? readItems(options.file)
          : [single(text, { scope: options.scope, ref: options.ref, type: options.type })];
        await withCairn(command, async (cairn, global) => {
          const outcomes = await cairn.remember(inputs.map((input) => ({ ...input, cwd: process.cwd() })));
          if (global.json) return printJson(outcomes);
          const count = (status: string) => outcomes.filter((outcome) => outcome.status === status).length;
          if (outcomes.length === 1) {
            const [outcome] = outcomes;
            printLine(
              outcome?.status === "created"
                ? `remembered (#${outcome.id})`
                : `${outcome?.status} (#${outcome?.id ?? "-"})${outcome?.reason ? `: ${outcome.reason}` : ""}`,
            );
          } else {
            printLine(`${count("created")} remembered, ${count("deduped")} already known, ${count("skipped")} skipped`);
          }
          const warnings = new Set(outcomes.flatMap((outcome) => outcome.warnings ?? []));
          for (const warning of warnings) printLine(`warning: ${warning}`);
        });
      },
    );
}
