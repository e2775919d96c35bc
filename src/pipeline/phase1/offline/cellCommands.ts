import { shellTools } from "./patterns.js";

/**
 * The tool of a Codex code-mode cell (0.144 and later): its call's text is the JavaScript the model
 * wrote, which runs shell commands through the nested tools (`await tools.exec_command({"cmd": "cargo
 * test", ...})`), and its result is the cell's (see src/sources/codex/codeModeCell.ts).
 */
export const CODE_CELL_TOOL = "exec";

/** What a cell ran, as far as its source says. */
export interface CellCommands {
  /** The command lines written as string literals, in order. */
  commands: string[];
  /** Calls of a shell tool in the cell, readable or not (`{cmd: c}` in a loop names no command). */
  calls: number;
}

/** A call of one of the nested tools: `tools.exec_command(`, `tools["shell"](`. */
const NESTED_CALL = /\btools\s*(?:\.\s*([A-Za-z_]\w*)|\[\s*["']([A-Za-z_]\w*)["']\s*\])\s*\(/g;
/** The command key of the call's argument object, then a string literal: what one call ran. */
const COMMAND_ARGUMENT =
  /^\s*\{(?:[^{}]*?[,\s])?["']?(?:cmd|command)["']?\s*:\s*("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\$]|\\.|\$(?!\{))*`)/;

/**
 * The shell commands a cell's source runs. Only a command written as a literal is read: one built at
 * run time (a variable, a template with `${...}`) is counted as a call but names nothing, so a caller
 * can tell a cell that ran one known command from one that ran several or unknown ones.
 */
export function cellCommands(source: string): CellCommands {
  const commands: string[] = [];
  let calls = 0;
  for (const match of source.matchAll(NESTED_CALL)) {
    const tool = match[1] ?? match[2] ?? "";
    if (!shellTools.has(tool)) continue;
    calls += 1;
    const after = source.slice((match.index ?? 0) + match[0].length, (match.index ?? 0) + match[0].length + 4000);
    const literal = COMMAND_ARGUMENT.exec(after)?.[1];
    const command = literal === undefined ? undefined : stringLiteral(literal);
    if (command !== undefined && command.trim() !== "") commands.push(command);
  }
  return { commands, calls };
}

/** The value of a JavaScript string literal (double, single or back quotes without substitutions). */
function stringLiteral(literal: string): string | undefined {
  const quote = literal[0];
  const body = literal.slice(1, -1);
  if (quote === '"') {
    try {
      return JSON.parse(literal) as string;
    } catch {
      // A JavaScript-only escape (\x41, \'): read the body with the simple escapes undone.
      return unescapeSimple(body);
    }
  }
  return unescapeSimple(body);
}

function unescapeSimple(body: string): string {
  const escapes: Record<string, string> = { n: "\n", t: "\t", r: "\r" };
  return body.replace(/\\(.)/g, (_, char: string) => escapes[char] ?? char);
}
