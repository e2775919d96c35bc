import type { Command } from "commander";
import type { PurgeReport, PurgeTarget } from "../../read/purgeMemory.js";
import type { ErasedBytesReport } from "../../store/dropErasedBytes.js";
import { CairnError } from "../../util/errors.js";
import { confirm } from "../confirm.js";
import { withCairn } from "../context.js";
import { nonEmpty, wholeNumber } from "../flags.js";
import { printJson, printLine } from "../output.js";

/** `cairn memory purge <id> | --text <text>`: the one deletion that keeps nothing. */
export function registerMemoryPurge(memory: Command): void {
  memory
    .command("purge")
    .description(
      "remove a memory, or a text (a leaked secret), and every trace of it: memories in any state and their history, sessions, summaries, memory files, and the store's file",
    )
    .argument("[id]", "the memory's id (recall --include-superseded --json shows ids)", wholeNumber("id", 1))
    .option("--text <text>", "a text to remove wherever cairn keeps it (any letter case)", nonEmpty("--text", "a text"))
    .option("--yes", "do not ask for confirmation")
    .option("--json", "print JSON")
    .action(async (id: number | undefined, options: { text?: string; yes?: boolean }, command: Command) => {
      const target = purgeTarget(id, options.text);
      await withCairn(command, async (cairn, global) => {
        const what = "id" in target ? `memory ${target.id} and every copy of its text` : "every trace of that text";
        if (!options.yes) {
          await confirm(
            "memory purge",
            `Remove ${what} from the store and the memory files? This cannot be undone. [y/N] `,
          );
        }
        const report = cairn.purgeMemory(target);
        if (global.json) return printJson(report);
        printPurge(report);
      });
    });
}

function purgeTarget(id: number | undefined, text: string | undefined): PurgeTarget {
  if ((id === undefined) === (text === undefined)) {
    throw new CairnError(
      "bad_flag",
      "memory purge takes a memory id or --text <text>, one of them; nothing was deleted",
    );
  }
  return id === undefined ? { text: text as string } : { id };
}

function printPurge(report: PurgeReport): void {
  printLine(
    `purged: ${report.memories} ${report.memories === 1 ? "memory" : "memories"} erased, the text replaced in ${report.rows} other stored ${report.rows === 1 ? "row" : "rows"} and ${report.files.length} memory ${report.files.length === 1 ? "file" : "files"}${report.restored > 0 ? `; ${report.restored} older ${report.restored === 1 ? "memory" : "memories"} current again` : ""}`,
  );
  if (report.rebuild.length > 0) {
    printLine(`built again from nothing at the next 'cairn run': ${report.rebuild.join(", ")}`);
  }
  for (const line of erasedBytesNote(report.bytes)) printLine(line);
}

/** What an erase could not drop from the store's files yet, and what to do (nothing when all is gone). */
export function erasedBytesNote(bytes: ErasedBytesReport): string[] {
  if (bytes.walEmptied) return [];
  return [
    "the store's write-ahead log (cairn.db-wal) may still hold the erased text: another cairn process (cairn serve?) was reading the store; stop it, then 'cairn memory purge --text <text>' empties the log",
  ];
}
