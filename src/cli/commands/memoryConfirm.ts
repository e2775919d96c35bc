import type { Command } from "commander";
import { awaitingConfirmation } from "../../memory/curateMemory.js";
import { toIso } from "../../util/clock.js";
import { withCairn } from "../context.js";
import { nonEmpty, wholeNumber } from "../flags.js";
import { printJson, printLine, shorten } from "../output.js";

/** How many waiting memories `cairn memory confirm` lists. */
const LISTED = 50;

/**
 * `cairn memory confirm [id]`: the user confirms a memory an agent stored (MCP, HTTP), so it becomes
 * the user's statement and, when global, reaches every project's sessions. Without an id it lists the
 * global ones that wait. Only here and in the library: an agent cannot confirm its own memory.
 */
export function registerMemoryConfirm(memory: Command): void {
  memory
    .command("confirm")
    .description("confirm a memory an agent saved, as your own (a global one then reaches every project); no id: list")
    .argument("[id]", "the memory's id", wholeNumber("id", 1))
    .option("--reason <text>", "why, kept in the memory's history", nonEmpty("--reason", "a non-empty text"))
    .option("--json", "print JSON")
    .action(async (id: number | undefined, options: { reason?: string }, command: Command) => {
      await withCairn(command, (cairn, global) => {
        if (id !== undefined) {
          const change = cairn.confirmMemory({ id, ...(options.reason ? { reason: options.reason } : {}) });
          return global.json ? printJson(change) : printLine(change.message);
        }
        const waiting = awaitingConfirmation(cairn.storage, LISTED);
        if (global.json) return printJson(waiting);
        if (waiting.length === 0) return printLine("no memory an agent saved for every project waits for you");
        printLine(`${waiting.length} saved by an agent for every project, not shown to sessions until you confirm:`);
        for (const memory of waiting)
          printLine(`  #${memory.id} (${toIso(memory.createdAt)}, by ${memory.who}): ${shorten(memory.content, 300)}`);
        printLine("cairn memory confirm <id> makes one yours; cairn memory forget <id> drops it");
      });
    });
}
