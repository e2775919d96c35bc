import { basename, dirname, sep } from "node:path";
import type { SessionKind } from "../types.js";
import type { ClaudeLine } from "./claudeLine.js";

export interface ClaudeIdentity {
  id: string;
  kind: SessionKind;
  parentId?: string;
  /** Subagent transcripts hold only sidechain lines; main transcripts skip inline sidechain lines. */
  subagent: boolean;
  /** Claude Code's "Warmup" sidechains prime a cache; they are not work anyone asked for. */
  warmup: boolean;
}

/**
 * Who a transcript belongs to. Main files are `<session-uuid>.jsonl`; subagents live in
 * `<session-uuid>/subagents/agent-<id>.jsonl` (2.1+) or flat `agent-<id>.jsonl` (2.0.x) and carry the
 * parent's sessionId, so they become `<sessionId>:agent-<agentId>`. Undefined until a line names a session
 * or a conversation line exists (a file holding only snapshots is not a session yet).
 */
export function claudeIdentity(path: string, lines: readonly ClaudeLine[]): ClaudeIdentity | undefined {
  const first = lines.find((line) => line.type === "user" || line.type === "assistant");
  if (first === undefined) return undefined;
  const stem = basename(path).replace(/\.jsonl$/, "");
  const sessionId = lines.find((line) => line.sessionId !== undefined)?.sessionId;
  const subagent = isAgentPath(path) || (first.isSidechain && first.agentId !== undefined);
  if (!subagent) {
    const sdk = lines.some((line) => line.entrypoint?.startsWith("sdk") === true);
    return { id: sessionId ?? stem, kind: sdk ? "exec" : "interactive", subagent, warmup: false };
  }
  const parentId = sessionId ?? parentFromPath(path) ?? stem;
  const agentId = first.agentId ?? stem.replace(/^agent-/, "");
  // `agent-acompact-*` is Claude Code summarizing the parent for compaction: its own bookkeeping, whose
  // text repeats the parent's compaction summary, so it is internal rather than delegated work.
  const kind: SessionKind = agentId.startsWith("acompact") ? "internal" : "subagent";
  return { id: `${parentId}:agent-${agentId}`, kind, parentId, subagent, warmup: isWarmup(lines) };
}

function isAgentPath(path: string): boolean {
  return basename(path).startsWith("agent-") || path.includes(`${sep}subagents${sep}`);
}

/** `<session-uuid>/subagents/agent-x.jsonl`: the grandparent folder is the parent session. */
function parentFromPath(path: string): string | undefined {
  const folder = dirname(path);
  return basename(folder) === "subagents" ? basename(dirname(folder)) : undefined;
}

function isWarmup(lines: readonly ClaudeLine[]): boolean {
  const firstUser = lines.find((line) => line.type === "user" && !line.isMeta);
  const content = firstUser?.content;
  return typeof content === "string" && content.trim() === "Warmup";
}
