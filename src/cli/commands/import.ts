import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Command } from "commander";
import { CairnError } from "../../util/errors.js";
import { withCairn } from "../context.js";
import { invocation } from "../invocation.js";
import { printJson, printLine } from "../output.js";
import { unreadableFile } from "../unreadableFile.js";

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
        const { code, reason } = unreadableFile(error);
        // Only a missing file is made by an export; a folder or a denied file is not fixed by one.
        const make = code === "ENOENT" ? `; make one with 'cairn export > ${file}'` : "";
        throw new CairnError("bad_input", `import: cannot read ${file} (${reason})${make}`);
      }
      await withCairn(command, async (cairn, global) => {
        const report = await cairn.importMemories(text, file);
        if (global.json) return printJson(report);
        const { importSummary } = await import("../../memory/importMemories.js");
        for (const line of importSummary(report)) printLine(line);
      });
    });
}
