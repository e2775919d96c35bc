import { parseTime } from "../../util/clock.js";
import { asRecord, asString } from "../jsonl.js";
import type { GitInfo, SessionKind } from "../types.js";

export interface CodexSessionMeta {
  id?: string;
  cwd: string | null;
  git?: GitInfo;
  kind: SessionKind;
  parentId?: string;
  startedAt?: number;
}

/** Reads `session_meta.payload` (or a legacy meta line); `lineTs` is the envelope time, a fallback start. */
export function readSessionMeta(payload: Record<string, unknown>, lineTs: number | undefined): CodexSessionMeta {
  const { kind, parentId } = sessionKind(payload);
  const meta: CodexSessionMeta = {
    cwd: asString(payload.cwd) ?? null,
    kind,
    startedAt: parseTime(payload.timestamp) ?? lineTs,
  };
  const id = asString(payload.id);
  if (id) meta.id = id;
  const git = readGit(payload.git);
  if (git) meta.git = git;
  if (parentId) meta.parentId = parentId;
  return meta;
}

/**
 * `source` is a string ("cli", "vscode", "exec", "mcp") or an object: `{"subagent": "review" | "compact" |
 * "memory_consolidation" | {"thread_spawn": {parent_thread_id, …}} | {"other": …}}`, and newer files
 * `{"internal": …}`. Codex's own memory runs are internal so they never feed memory back into itself.
 */
export function sessionKind(payload: Record<string, unknown>): { kind: SessionKind; parentId?: string } {
  const source = payload.source;
  const sourceObject = asRecord(source);
  const topParent = asString(payload.parent_thread_id);
  if (sourceObject !== undefined) {
    if ("internal" in sourceObject) return withParent("internal", topParent);
    if ("subagent" in sourceObject) {
      const subagent = sourceObject.subagent;
      if (subagent === "memory_consolidation") return withParent("internal", topParent);
      const spawn = asRecord(asRecord(subagent)?.thread_spawn);
      return withParent("subagent", asString(spawn?.parent_thread_id) ?? topParent);
    }
  }
  if (payload.thread_source === "subagent") return withParent("subagent", topParent);
  if (source === "exec" || payload.originator === "codex_exec") return withParent("exec", topParent);
  return withParent("interactive", topParent);
}

function withParent(kind: SessionKind, parentId: string | undefined): { kind: SessionKind; parentId?: string } {
  return parentId ? { kind, parentId } : { kind };
}

function readGit(value: unknown): GitInfo | undefined {
  const git = asRecord(value);
  if (git === undefined) return undefined;
  const info: GitInfo = {};
  const branch = asString(git.branch);
  const commit = asString(git.commit_hash);
  const remote = asString(git.repository_url);
  if (branch) info.branch = branch;
  if (commit) info.commit = commit;
  if (remote) info.remote = remote;
  return Object.keys(info).length > 0 ? info : undefined;
}
