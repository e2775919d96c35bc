import { type AgentId, agentIds } from "../agents/registry.js";

/**
 * The normalized shape every agent adapter produces. Nothing here imports an adapter: adapters,
 * the scanner and the collector all depend on this file, never the reverse.
 */

/** Who a stored session came from: a registered agent (src/agents/registry.ts), or `push` (the HTTP API). */
export type AgentName = AgentId | "push";
export const agentNames: readonly AgentName[] = [...agentIds, "push"];

export type SessionKind = "interactive" | "exec" | "subagent" | "internal";

export type ItemRole = "user" | "assistant" | "tool_call" | "tool_result" | "system" | "compaction";

export interface GitInfo {
  branch?: string;
  commit?: string;
  /** The remote URL as recorded (normalized later into the project key). */
  remote?: string;
}

export interface SessionInfo {
  /** The agent's own session id (Claude Code subagents: `<parent>:agent-<agentId>`). */
  id: string;
  agent: AgentName;
  kind: SessionKind;
  /** Working directory as the transcript recorded it; null when the format does not say. */
  cwd: string | null;
  git?: GitInfo;
  title?: string;
  parentId?: string;
  /** Epoch milliseconds. */
  startedAt: number;
  updatedAt: number;
}

export interface SessionItem {
  /**
   * Stable identity of the item within its session, so a re-read of the same record updates rather
   * than duplicates it (e.g. `L12`, `L12#2`, a message id). Never reused for different content positions.
   */
  key: string;
  role: ItemRole;
  text: string;
  /** Tool name for tool_call / tool_result. */
  tool?: string;
  callId?: string;
  /** A tool result that failed (true) or worked (false), as the transcript says. */
  isError?: boolean;
  /**
   * A tool result whose transcript shows neither success nor failure (a Codex code-mode cell that printed
   * no exit code, a command still running when it answered): it is neither "worked" nor "failed".
   * `isError` is then unset.
   */
  outcomeUnknown?: boolean;
  /** Epoch milliseconds. */
  ts?: number;
  origin: { file: string; line: number };
}

export interface ParsedSession {
  session: SessionInfo;
  /** In conversation order. */
  items: SessionItem[];
  /** True when the items continue those stored from an earlier read (an append), false for the whole session. */
  partial?: boolean;
  /** Identity of the items of a whole read (see `contentHash`), computed while parsing, outside any write. */
  contentHash?: string;
}

/** A located, counted reason a record was not imported. */
export interface ParseProblem {
  file: string;
  line?: number;
  reason: string;
}

export interface ParseOutput {
  sessions: ParsedSession[];
  problems: ParseProblem[];
  /** Counted but harmless: records skipped on purpose (unknown types, injected context, noise). */
  skipped: number;
}
