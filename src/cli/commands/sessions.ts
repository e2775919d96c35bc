import type { Command } from "commander";
import { sessionRows } from "../../server/sessionRows.js";
import { agentNames } from "../../sources/types.js";
import { withCairn } from "../context.js";
import { oneOf, wholeNumber } from "../flags.js";
import { printJson, printLine, printTable, shorten } from "../output.js";

export function registerSessions(program: Command): void {
  program
    .command("sessions")
    .description("list the sessions cairn has collected, newest first")
    .option("--agent <agent>", `only this agent's sessions: ${agentNames.join(", ")}`, oneOf("--agent", agentNames))
    .option("--limit <n>", "at most n sessions", wholeNumber("--limit", 1))
    .option("--json", "print a JSON array")
    .action(async (options: { agent?: string; limit?: number }, command: Command) => {
      await withCairn(command, (cairn, global) => {
        const rows = sessionRows(cairn, {
          ...(options.agent ? { agent: options.agent } : {}),
          ...(options.limit ? { limit: options.limit } : {}),
        });
        if (global.json) return printJson(rows);
        if (rows.length === 0) return printLine("no sessions yet: run 'cairn scan'");
        printTable(
          ["UPDATED", "AGENT", "KIND", "ITEMS", "STATE", "ID", "CWD"],
          rows.map((row) => [
            (row.updatedAt ?? "").slice(0, 16).replace("T", " "),
            row.agent,
            row.kind,
            String(row.items),
            row.state,
            shorten(row.id, 40),
            shorten(row.cwd ?? "-", 60),
          ]),
        );
        const excluded = rows.filter((row) => row.excluded).length;
        if (excluded > 0) printLine(`${excluded} excluded by memories.exclude (metadata only, never extracted)`);
        const old = rows.filter((row) => row.state === "too old").length;
        if (old > 0)
          printLine(
            `${old} too old to extract (last updated over memories.maxRolloutAgeDays = ${cairn.config.memories.maxRolloutAgeDays} days ago): 'cairn run' says the value that includes them`,
          );
        const failed = rows.filter((row) => row.dead).length;
        if (failed > 0)
          printLine(`${failed} dead (extraction failed permanently): 'cairn run --retry-dead' runs them again`);
      });
    });
}
