import { asRecord, asString } from "../jsonl.js";
import { isInjectedContext } from "./injectedContext.js";
import type { RolloutLine } from "./rolloutLine.js";
import { pushItem, type RolloutParse } from "./rolloutParse.js";
import { commandText, readToolOutput, renderCallArguments } from "./toolText.js";

type ResponseHandler = (parse: RolloutParse, line: RolloutLine) => boolean;

/**
 * `response_item` payloads: the model's view of the conversation. Messages are used only when the file
 * has no cleaner `event_msg` text; tool calls and outputs always come from here. Returns false for
 * records that add nothing (reasoning, developer messages, unknown types), which the caller counts.
 */
export function handleResponseItem(parse: RolloutParse, line: RolloutLine): boolean {
  const type = asString(line.payload.type);
  const handler = type === undefined ? undefined : responseHandlers[type];
  return handler === undefined ? false : handler(parse, line);
}

const responseHandlers: Record<string, ResponseHandler> = {
  message: handleMessage,
  function_call: (parse, line) => {
    const name = asString(line.payload.name) ?? "function";
    if (name === "wait") noteCellWait(parse, line);
    return addCall(parse, line, name, renderCallArguments(line.payload.arguments));
  },
  custom_tool_call: (parse, line) =>
    addCall(parse, line, asString(line.payload.name) ?? "custom_tool", asString(line.payload.input) ?? ""),
  local_shell_call: (parse, line) => {
    const action = asRecord(line.payload.action);
    return addCall(parse, line, "local_shell", commandText(action?.command) ?? "");
  },
  web_search_call: (parse, line) => addCall(parse, line, "web_search", webSearchText(line.payload.action)),
  function_call_output: addOutput,
  custom_tool_call_output: addOutput,
};

function handleMessage(parse: RolloutParse, line: RolloutLine): boolean {
  const role = line.payload.role;
  if (role === "user" && !parse.state.userFromEvents) {
    pushItem(parse, line, { role: "user", text: messageText(line.payload.content, true) });
    return true;
  }
  if (role === "assistant" && !parse.state.assistantFromEvents) {
    pushItem(parse, line, { role: "assistant", text: messageText(line.payload.content, false) });
    return true;
  }
  // Developer/system messages are harness instructions; user/assistant ones are duplicated by events.
  return false;
}

function messageText(content: unknown, dropInjected: boolean): string {
  if (typeof content === "string") return dropInjected && isInjectedContext(content) ? "" : content;
  if (!Array.isArray(content)) return "";
  const parts: string[] = [];
  for (const part of content) {
    const text = asString(asRecord(part)?.text);
    if (text === undefined || (dropInjected && isInjectedContext(text))) continue;
    parts.push(text);
  }
  return parts.join("\n\n");
}

function addCall(parse: RolloutParse, line: RolloutLine, tool: string, text: string): boolean {
  const callId = asString(line.payload.call_id) ?? asString(line.payload.id);
  if (callId !== undefined) parse.state.openCalls[callId] = tool;
  pushItem(
    parse,
    line,
    callId === undefined ? { role: "tool_call", text, tool } : { role: "tool_call", text, tool, callId },
  );
  return true;
}

function addOutput(parse: RolloutParse, line: RolloutLine): boolean {
  const callId = asString(line.payload.call_id);
  const output = readToolOutput(line.payload.output);
  const waited = callId === undefined ? undefined : cellWaitedOn(parse, callId, output);
  const tool = waited?.tool ?? (callId === undefined ? undefined : parse.state.openCalls[callId]);
  if (callId !== undefined) delete parse.state.openCalls[callId];
  const resultCallId = waited?.callId ?? callId;
  if (output.running && resultCallId !== undefined) {
    if (output.cellId !== undefined) parse.state.runningCells[output.cellId] = resultCallId;
    else parse.state.runningCalls[resultCallId] = tool ?? "exec_command";
  }
  pushItem(parse, line, {
    role: "tool_result",
    text: output.text.trim() === "" && !output.unknown ? silentNote(output.isError, output.exitCode) : output.text,
    ...(tool === undefined ? {} : { tool }),
    ...(resultCallId === undefined ? {} : { callId: resultCallId }),
    ...(output.isError === undefined ? {} : { isError: output.isError }),
    ...(output.unknown ? { outcomeUnknown: true } : {}),
  });
  return true;
}

/** A `wait` call names the code-mode cell whose result its output brings. */
function noteCellWait(parse: RolloutParse, line: RolloutLine): void {
  const callId = asString(line.payload.call_id);
  const args = asRecord(parseArguments(line.payload.arguments));
  const cellId = args?.cell_id;
  if (callId === undefined || (typeof cellId !== "string" && typeof cellId !== "number")) return;
  if (parse.state.runningCells[String(cellId)] !== undefined) parse.state.waitCalls[callId] = String(cellId);
}

/**
 * The output of a `wait` on a running cell is that cell's result: it is filed under the `exec` call that
 * started the cell (so the command and its outcome stay together). A cell still running keeps waiting.
 */
function cellWaitedOn(
  parse: RolloutParse,
  callId: string,
  output: ReturnType<typeof readToolOutput>,
): { callId: string; tool: string } | undefined {
  const cellId = parse.state.waitCalls[callId];
  if (cellId === undefined) return undefined;
  delete parse.state.waitCalls[callId];
  const execCall = parse.state.runningCells[cellId];
  if (execCall === undefined) return undefined;
  if (!output.running) delete parse.state.runningCells[cellId];
  return { callId: execCall, tool: "exec" };
}

function parseArguments(raw: unknown): unknown {
  if (typeof raw !== "string") return raw;
  try {
    return JSON.parse(raw);
  } catch {
    // Arguments that are not JSON name no cell.
    return undefined;
  }
}

/**
 * `event_msg exec_command_end` of a command whose output said it was still running: the command's
 * real result, with its exit code and the output it printed (Codex persists it in extended mode,
 * `aggregated_output` up to 10 KB). For any other call the output item already was the result.
 */
export function addExecEnd(parse: RolloutParse, line: RolloutLine): boolean {
  const callId = asString(line.payload.call_id);
  const tool = callId === undefined ? undefined : parse.state.runningCalls[callId];
  if (callId === undefined || tool === undefined) return false;
  delete parse.state.runningCalls[callId];
  const exitCode = typeof line.payload.exit_code === "number" ? line.payload.exit_code : undefined;
  const printed =
    asString(line.payload.aggregated_output) ??
    [asString(line.payload.stdout), asString(line.payload.stderr)].filter(Boolean).join("\n");
  const isError = exitCode === undefined ? undefined : exitCode !== 0;
  pushItem(parse, line, {
    role: "tool_result",
    text: printed.trim() === "" ? silentNote(isError, exitCode) : printed,
    tool,
    callId,
    ...(isError === undefined ? {} : { isError }),
  });
  return true;
}

/**
 * The text of a result that printed nothing: its exit status, which is the whole answer (a build or a
 * check that passes quietly is a success a reader must see, a quiet failure a failure). A result whose
 * outcome was not recorded stays empty, and an empty result is not kept: it tells nothing.
 */
function silentNote(isError: boolean | undefined, exitCode: number | undefined): string {
  if (isError === undefined) return "";
  if (exitCode !== undefined) return `(no output, exit code ${exitCode})`;
  return isError ? "(failed, no output)" : "(no output, succeeded)";
}

function webSearchText(value: unknown): string {
  const action = asRecord(value);
  if (action === undefined) return "";
  const queries = Array.isArray(action.queries) ? action.queries.filter((q) => typeof q === "string") : [];
  return asString(action.query) ?? (queries.length > 0 ? queries.join("\n") : undefined) ?? asString(action.url) ?? "";
}
