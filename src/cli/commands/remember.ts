import type { Command } from "commander";
import { memoryTypes } from "../../memory/types.js";
import { withCairn } from "../context.js";
import { printJson, printLine } from "../output.js";

export function registerRemember(program: Command): void {
  program
    .command("remember [text]")
    .description("store a memory now (default scope: the current project; 'global' or any label also work)")
    .option("--scope <scope>", "project (default), global, or any label")
    .option("--ref <ref>", "your provenance label, returned by recall")
    .option("--type <type>", `one of ${memoryTypes.join(", ")}`)
    .option("--file <items.jsonl>", 'bulk: one {"content", "scope"?, "ref"?, "type"?} object per line')
    .option("--json", "print JSON")
    .action(
      async (
        text: string | undefined,
        options: { scope?: string; ref?: string; type?: string; file?: string },
        command: Command,
      ) => {
        // The validation schema library is loaded only when this command runs.
        const { readItems, single } = await import("../rememberInput.js");
        const inputs = options.file ? readItems(options.file) : [single(text, options)];
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
        });
      },
    );
}
