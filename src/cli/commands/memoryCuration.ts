import type { Interface } from "node:readline/promises";
import type { Command } from "commander";
import type { Cairn } from "../../cairn.js";
import type { MemoryChange } from "../../memory/curateMemory.js";
import type { ReviewEntry } from "../../memory/reviewQueue.js";
import { memoryTypes } from "../../requests/memoryTypes.js";
import { type ReviewAction, reviewActions } from "../../requests/reviewActions.js";
import { toIso } from "../../util/clock.js";
import { CairnError } from "../../util/errors.js";
import { type GlobalOptions, withCairn } from "../context.js";
import { nonEmpty, oneOf, wholeNumber } from "../flags.js";
import { printJson, printLine, shorten } from "../output.js";
import { reviewLines, walkReviews } from "../reviewWalk.js";
import { registerMemoryConfirm } from "./memoryConfirm.js";

/** `cairn memory review | forget | edit | confirm | restore | history`: a person decides what memory keeps. */
export function registerMemoryCuration(memory: Command): void {
  memory
    .command("review")
    .description(
      "list what was flagged for review (contradictions), both sides shown; decide with <flag> --keep, --supersede or --forget",
    )
    .argument("[flag]", "the id of the flag to decide", wholeNumber("flag", 1))
    .option("--keep", "keep the flagged memory as it is; close the flag")
    .option("--supersede", "let the newer memory (or the proposed fact) replace the flagged one")
    .option("--forget", "forget the flagged memory")
    .option(
      "--scope <scope>",
      "project (default: this project and global), global, all, or a label",
      nonEmpty("--scope", "project, global, all or a label"),
    )
    .option("--all", "flags of every scope (same as --scope all)")
    .option("--cwd <dir>", "the project's directory", nonEmpty("--cwd", "a directory"), process.cwd())
    .option("--list", "only list, even in a terminal")
    .option("--json", "print JSON")
    .action(async (flag: number | undefined, options: ReviewOptions, command: Command) => {
      const action = chosenAction(options);
      if (flag === undefined && action !== undefined)
        throw new CairnError("bad_flag", `--${action} needs the flag's id: cairn memory review <flag> --${action}`);
      if (flag !== undefined && action === undefined)
        throw new CairnError("bad_flag", `say what to do with flag #${flag}: --keep, --supersede or --forget`);
      await withCairn(command, async (cairn, global) => {
        if (flag !== undefined && action !== undefined)
          return printChange(await cairn.resolveReview({ flag, action }), global);
        const scope = options.all ? "all" : options.scope;
        const entries = cairn.reviews({ cwd: options.cwd, ...(scope ? { scope } : {}) });
        if (global.json) return printJson(entries);
        if (entries.length === 0) return printLine("nothing to review");
        const interactive = !options.list && process.stdin.isTTY && process.stdout.isTTY;
        if (interactive) return walkInTerminal(cairn, entries);
        for (const entry of entries) for (const line of [...reviewLines(entry), ""]) printLine(line);
        printLine(`${entries.length} to review: cairn memory review <flag> --keep | --supersede | --forget`);
      });
    });

  memory
    .command("forget")
    .description(
      "forget one memory by id (a tombstone: the history keeps its text, cairn memory restore brings it back; cairn memory purge removes it for good)",
    )
    .argument("<id>", "the memory's id (recall --json and memory review show ids)", wholeNumber("id", 1))
    .option("--reason <text>", "why, kept in the memory's history", nonEmpty("--reason", "a non-empty text"))
    .option("--json", "print JSON")
    .action(async (id: number, options: { reason?: string }, command: Command) => {
      await withCairn(command, (cairn, global) =>
        printChange(cairn.forgetMemory({ id, ...(options.reason ? { reason: options.reason } : {}) }), global),
      );
    });

  memory
    .command("edit")
    .description(
      "replace one memory: the new text is stored like a remember and supersedes the old one, which is kept (cairn memory purge removes it)",
    )
    .argument("<id>", "the memory's id", wholeNumber("id", 1))
    .option("--content <text>", "the new text", nonEmpty("--content", "the new text"))
    .option("--type <type>", `the new type, one of ${memoryTypes.join(", ")}`, oneOf("--type", memoryTypes))
    .option("--reason <text>", "why, kept in the memory's history", nonEmpty("--reason", "a non-empty text"))
    .option("--json", "print JSON")
    .action(async (id: number, options: { content?: string; type?: string; reason?: string }, command: Command) => {
      if (options.content === undefined && options.type === undefined)
        throw new CairnError("bad_flag", "memory edit needs --content and/or --type; nothing was changed");
      await withCairn(command, async (cairn, global) =>
        printChange(await cairn.editMemory({ id, ...pick(options) }), global),
      );
    });

  registerMemoryConfirm(memory);

  memory
    .command("restore")
    .description("bring back a forgotten or replaced memory")
    .argument("<id>", "the memory's id", wholeNumber("id", 1))
    .option("--reason <text>", "why, kept in the memory's history", nonEmpty("--reason", "a non-empty text"))
    .option("--json", "print JSON")
    .action(async (id: number, options: { reason?: string }, command: Command) => {
      await withCairn(command, (cairn, global) =>
        printChange(cairn.restoreMemory({ id, ...(options.reason ? { reason: options.reason } : {}) }), global),
      );
    });

  memory
    .command("history")
    .description("show one memory and everything recorded about it: each change, by whom, when and why")
    .argument("<id>", "the memory's id", wholeNumber("id", 1))
    .option("--json", "print JSON")
    .action(async (id: number, _options: unknown, command: Command) => {
      await withCairn(command, (cairn, global) => {
        const { memory, events } = cairn.memoryHistory({ id });
        if (global.json) return printJson({ memory, events });
        const state =
          memory.deletedAt === null
            ? "live"
            : memory.supersededBy === null
              ? `forgotten ${toIso(memory.deletedAt)}`
              : `replaced by #${memory.supersededBy} ${toIso(memory.supersededAt ?? memory.deletedAt)}`;
        printLine(`#${memory.id} (${memory.type}, ${memory.scope}, ${state}): ${shorten(memory.content, 400)}`);
        for (const event of events) {
          const by = event.who ? ` by ${event.who}` : "";
          printLine(
            `  ${toIso(event.createdAt)}  ${event.event}${by}${event.reason ? `: ${shorten(event.reason, 300)}` : ""}`,
          );
          if (event.oldContent && event.oldContent !== memory.content)
            printLine(`    was: ${shorten(event.oldContent, 300)}`);
          if (event.newContent && event.newContent !== memory.content)
            printLine(`    now: ${shorten(event.newContent, 300)}`);
        }
        if (events.length === 0) printLine("  (no history recorded)");
      });
    });
}

interface ReviewOptions {
  keep?: boolean;
  supersede?: boolean;
  forget?: boolean;
  scope?: string;
  all?: boolean;
  cwd: string;
  list?: boolean;
}

/** The edit's own fields, without the output flags commander hands over beside them. */
function pick(options: { content?: string; type?: string; reason?: string }) {
  const { content, type, reason } = options;
  return { ...(content ? { content } : {}), ...(type ? { type } : {}), ...(reason ? { reason } : {}) };
}

function chosenAction(options: ReviewOptions): ReviewAction | undefined {
  const chosen = reviewActions.filter((action) => options[action]);
  if (chosen.length > 1) throw new CairnError("bad_flag", "choose one of --keep, --supersede and --forget");
  return chosen[0];
}

function printChange(change: MemoryChange, global: GlobalOptions): void {
  if (global.json) {
    printJson(change);
    return;
  }
  printLine(change.message);
  for (const warning of change.warnings ?? []) printLine(`warning: ${warning}`);
}

/** The interactive walk in a terminal; its end (q, or Ctrl-D) leaves the remaining flags open. */
async function walkInTerminal(cairn: Cairn, entries: ReviewEntry[]): Promise<void> {
  const { createInterface } = await import("node:readline/promises");
  const prompt = createInterface({ input: process.stdin, output: process.stdout });
  let ended = false;
  prompt.on("close", () => {
    ended = true;
  });
  try {
    const result = await walkReviews({
      entries,
      decide: async (flag, action) => (await cairn.resolveReview({ flag, action })).message,
      ask: (question) => (ended ? Promise.resolve(undefined) : answerOrEnd(prompt, question)),
      print: printLine,
    });
    printLine(`${result.decided} decided, ${result.skipped} left open`);
  } finally {
    prompt.close();
  }
}

/** The answer to a question, or undefined when the input ends first (Ctrl-D). */
function answerOrEnd(prompt: Interface, question: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const ended = () => resolve(undefined);
    prompt.once("close", ended);
    prompt.question(question).then(
      (answer) => {
        prompt.off("close", ended);
        resolve(answer);
      },
      () => resolve(undefined),
    );
  });
}
