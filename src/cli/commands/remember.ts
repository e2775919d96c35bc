import type { Command } from "commander";
import { describeSupersessions } from "../../memory/lifecycle/describeSupersessions.js";
import { memoryTypes } from "../../memory/types.js";
import { CairnError } from "../../util/errors.js";
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
      "--term <term>",
      "a word a later question may use that the text does not (repeat for more)",
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option(
      "--file <items.jsonl>",
      'bulk: one {"content", "scope"?, "ref"?, "type"?, "searchTerms"?, "occurredAt"?, "transcript"?, "sessionKey"?} object per line; the other flags apply to every line, and a line\'s own field wins',
      nonEmpty("--file", "the path of a JSONL file"),
    )
    .option(
      "--transcript-file <path>",
      "keep this session transcript beside the memory (needs --session-key)",
      nonEmpty("--transcript-file", "the path of a text file"),
    )
    .option(
      "--session-key <key>",
      "the session the memory and its transcript come from",
      nonEmpty("--session-key", "a non-empty key"),
    )
    .option("--json", "print JSON")
    .action(
      async (
        text: string | undefined,
        options: {
          scope?: string;
          ref?: string;
          type?: string;
          term?: string[];
          file?: string;
          transcriptFile?: string;
          sessionKey?: string;
        },
        command: Command,
      ) => {
        // The validation schema library is loaded only when this command runs.
        const { readItems, readTranscript, single } = await import("../rememberInput.js");
        // A text beside --file would be dropped without a word: refused before anything is read or stored.
        if (options.file && text !== undefined)
          throw new CairnError("bad_input", "remember: give the text or --file, not both");
        const transcript = options.transcriptFile ? readTranscript(options.transcriptFile) : undefined;
        const flags = {
          scope: options.scope,
          ref: options.ref,
          type: options.type,
          searchTerms: options.term,
          transcript,
          sessionKey: options.sessionKey,
        };
        // With --file the flags are every line's defaults, as an HTTP batch's shared fields are.
        const inputs = options.file ? readItems(options.file, Date.now(), flags) : [single(text, flags)];
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
          for (const outcome of outcomes) for (const line of describeSupersessions(outcome)) printLine(line);
          const warnings = new Set(outcomes.flatMap((outcome) => outcome.warnings ?? []));
          for (const warning of warnings) printLine(`warning: ${warning}`);
        });
      },
    );
}
