import { claudeCode } from "../agents/claudeCode/descriptor.js";
import { codex } from "../agents/codex/descriptor.js";
import { agents } from "../agents/registry.js";
import type { ToolTextBudget } from "../agents/types.js";
import type { MemoryChange } from "../memory/curateMemory.js";
import { describeSupersessions } from "../memory/lifecycle/describeSupersessions.js";
import type { ReviewEntry, ReviewSide } from "../memory/reviewQueue.js";
import type { ExpandedTranscript, RecallResponse, RememberOutcome } from "../memory/types.js";
import { redactText } from "../redact/redact.js";

/**
 * Recall results as an agent reads them: one numbered block per memory with its score, type, scope and
 * id, the content quoted so that memory text is never mistaken for instructions.
 */
export function formatRecall(asked: string, response: RecallResponse): string {
  // The query is quoted back: a secret pasted into it is not (the memories themselves were guarded when stored).
  const query = redactText(asked);
  if (response.results.length === 0)
    return [`No memories match "${query}".`, ...(response.reason ? [response.reason.message] : [])].join(" ");
  const count = response.results.length;
  const lines = [`${count} ${count === 1 ? "memory" : "memories"} for "${query}" (most relevant first):`];
  const shownTranscripts = new Set<string>();
  response.results.forEach((result, index) => {
    const source = result.provenance.sessionId ? `, from session ${result.provenance.sessionId}` : "";
    const ref = result.ref ? `, ref ${result.ref}` : "";
    lines.push(
      "",
      `${index + 1}. [score ${result.score.toFixed(2)}, ${result.type}, scope ${result.scope}, id ${result.id}${ref}${source}]`,
      ...result.content.split("\n").map((line) => `> ${line}`),
    );
    if (result.doubted)
      lines.push(
        `   may be out of date: id ${result.doubted.newer} is newer and may replace it (open review flag ${result.doubted.flag})`,
      );
    for (const item of result.evidence ?? []) lines.push(`   evidence #${item.seq} ${item.role}: ${item.text}`);
    if (result.transcript) lines.push(...transcriptLines(result.transcript, shownTranscripts));
    for (const old of result.superseded ?? []) {
      const day = new Date(old.supersededAt).toISOString().slice(0, 10);
      lines.push(`   superseded ${day} by id ${old.supersededBy} (no longer true), id ${old.id}:`);
      lines.push(...old.content.split("\n").map((line) => `   > ${line}`));
    }
  });
  for (const warning of response.warnings) lines.push("", `warning: ${warning}`);
  return lines.join("\n");
}

/** What one tool result may hold: UTF-8 bytes and lines, the note about the rest included. */
export type { ToolTextBudget };

/** Claude Code's budget (its descriptor, src/agents/claudeCode, cites the limits). */
export const CLAUDE_CODE_TOOL_TEXT: ToolTextBudget = budgetOf(claudeCode.mcp.toolText);

/** Codex's budget (its descriptor, src/agents/codex, cites the limits). */
export const CODEX_TOOL_TEXT: ToolTextBudget = budgetOf(codex.mcp.toolText);

/** The smallest documented budget of the registered agents: for a client no descriptor names. */
const SMALLEST_TOOL_TEXT: ToolTextBudget = agents
  .flatMap((agent) => (agent.mcp.toolText ? [budgetOf(agent.mcp.toolText)] : []))
  .reduce((a, b) => (b.bytes < a.bytes ? b : a));

/**
 * The budget for the client that connected, by the name it gave in `initialize`: the documented one
 * of the agent whose descriptor gives that name. An unknown client, an agent with no documented limit
 * (or a stateless HTTP call, which carries no name) gets the smallest: a result in parts always
 * arrives, one cut in its middle by the client does not.
 */
export function toolTextBudget(clientName: string | undefined): ToolTextBudget {
  const mcp = agents.find((agent) => agent.mcp.clientName === clientName)?.mcp;
  return mcp?.toolText ? budgetOf(mcp.toolText) : SMALLEST_TOOL_TEXT;
}

function budgetOf(limit: ToolTextBudget): ToolTextBudget {
  return { bytes: limit.bytes, lines: limit.lines };
}

/** Room kept for the closing note. */
const NOTE_BYTES = 300;

/**
 * The text as one tool result: whole when it fits the budget, else cut at a paragraph or line break
 * before it and ended by a line that says how much was shown and how to get the rest (`rest(shown)`,
 * `shown` counted in the text's own characters).
 */
export function fitToolText(text: string, rest: (shown: number) => string, budget: ToolTextBudget): string {
  const shown = toolTextCut(text, budget);
  if (shown === undefined) return text;
  return `${text.slice(0, shown)}\n\n[cut: ${shown} of ${text.length} characters shown; ${rest(shown)}]`;
}

/**
 * Where a text too long for one tool result is cut (in its characters), leaving room for a closing
 * note of up to NOTE_BYTES; undefined when it fits whole.
 */
export function toolTextCut(text: string, budget: ToolTextBudget): number | undefined {
  const lines = lineCount(text);
  if (lines <= budget.lines && Buffer.byteLength(text) <= budget.bytes) return undefined;
  // The longest prefix within the bytes, then within the lines.
  let room = new TextEncoder().encodeInto(text, new Uint8Array(budget.bytes - NOTE_BYTES)).read;
  let newline = -1;
  for (let line = 0; line < budget.lines - 2; line++) {
    newline = text.indexOf("\n", newline + 1);
    if (newline < 0 || newline >= room) break;
  }
  if (newline >= 0 && newline < room) room = newline;
  const paragraph = text.lastIndexOf("\n\n", room);
  const line = text.lastIndexOf("\n", room);
  return paragraph > room / 2 ? paragraph : line > room / 2 ? line : room;
}

function lineCount(text: string): number {
  let count = 1;
  for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) count++;
  return count;
}

/**
 * Characters of one session transcript shown in a tool result. Agents cap what a tool may return (Claude
 * Code warns above 10,000 tokens of MCP output and refuses more than 25,000 by default,
 * `MAX_MCP_OUTPUT_TOKENS`), and a pushed transcript may hold 500,000 characters: the agent gets its
 * beginning and the size, HTTP and the library the whole text.
 */
export const TOOL_TRANSCRIPT_CHARS = 4_000;

/** A transcript once per session, however many results came from it. */
function transcriptLines(transcript: ExpandedTranscript, shown: Set<string>): string[] {
  if (shown.has(transcript.sessionKey)) return [`   transcript of session ${transcript.sessionKey}: shown above`];
  shown.add(transcript.sessionKey);
  const { content } = transcript;
  const cut = content.length > TOOL_TRANSCRIPT_CHARS;
  const head = cut
    ? `   transcript of session ${transcript.sessionKey} (first ${TOOL_TRANSCRIPT_CHARS} of ${content.length} characters):`
    : `   transcript of session ${transcript.sessionKey}:`;
  const body = cut ? content.slice(0, TOOL_TRANSCRIPT_CHARS) : content;
  return [head, ...body.split("\n").map((line) => `   | ${line}`)];
}

export function formatRemember(outcome: RememberOutcome | undefined, options: { heldForUser?: boolean } = {}): string {
  if (!outcome) return "Nothing was stored.";
  if (outcome.status === "created")
    return [
      `Remembered (id ${outcome.id}).`,
      ...(options.heldForUser
        ? [
            `Sessions see a memory for every project once the user confirms it: ask the user to run \`cairn memory confirm ${outcome.id}\` (or \`cairn memory forget ${outcome.id}\`).`,
          ]
        : []),
      ...describeSupersessions(outcome),
      ...(outcome.warnings ?? []).map((w) => `warning: ${w}`),
    ].join("\n\n");
  if (outcome.status === "deduped") return `Already remembered (id ${outcome.id}); nothing new was stored.`;
  return `Not stored: ${outcome.reason ?? "skipped"}.`;
}

/** What a change to a memory did, and any warning of its write. */
export function formatChange(change: MemoryChange): string {
  return [`${change.message}.`, ...(change.warnings ?? []).map((w) => `warning: ${w}`)].join("\n\n");
}

/** Open review flags, each side's text quoted like recall's, with its id, date and state. */
export function formatReviews(entries: ReviewEntry[]): string {
  if (entries.length === 0) return "Nothing to review.";
  const lines = [`${entries.length} flags to review (decide each with resolve_review: keep, supersede or forget):`];
  for (const entry of entries) {
    lines.push("", `flag ${entry.flag} [${entry.detector}, ${isoDay(entry.createdAt)}]: ${entry.reason}`);
    lines.push(...side("flagged", entry.memory));
    if (entry.related) lines.push(...side(entry.relatedIs ?? "newer", entry.related));
    if (entry.proposedContent !== null)
      lines.push("proposed instead:", ...entry.proposedContent.split("\n").map((line) => `> ${line}`));
  }
  return lines.join("\n");
}

function side(label: string, memory: ReviewSide | null): string[] {
  if (!memory) return [`${label}: the memory no longer exists`];
  const head = `${label}: id ${memory.id}, ${memory.type}, scope ${memory.scope}, ${isoDay(memory.createdAt)}, ${memory.state}`;
  return [head, ...memory.content.split("\n").map((line) => `> ${line}`)];
}

function isoDay(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 10);
}
