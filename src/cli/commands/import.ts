import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Command } from "commander";
import { CairnError } from "../../util/errors.js";
import { withCairn } from "../context.js";
import { invocation } from "../invocation.js";
import { printJson, printLine } from "../output.js";

export function registerImport(program: Command): void {
  program
    .command("import <file>")
    .description(
      "store the memories of a 'cairn export' file (all or none; what is already here is skipped, so importing twice adds nothing)",
    )
    .option("--json", "print JSON")
    .action(async (file: string, _options: unknown, command: Command) => {
      let text: string;
      try {
        text = readFileSync(resolve(invocation().cwd, file), "utf8");
      } catch (error) {
        throw new CairnError(
          "bad_input",
          `import: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? "error"}); make one with 'cairn export > ${file}'`,
        );
      }
      await withCairn(command, async (cairn, global) => {
        const report = await cairn.importMemories(text, file);
        if (global.json) return printJson(report);
        const { importSummary } = await import("../../memory/importMemories.js");
        for (const line of importSummary(report)) printLine(line);
      });
    });
}
