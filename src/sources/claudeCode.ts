import { statSync } from "node:fs";
import { errorMessage } from "../util/errors.js";
import { discovered, type ReadRequest, type ReadResult, type SourceAdapter } from "./adapter.js";
import { claudeIdentity } from "./claudeCode/claudeIdentity.js";
import { type ClaudeLine, toClaudeLine } from "./claudeCode/claudeLine.js";
import { type ClaudeState, parseClaudeState } from "./claudeCode/claudeState.js";
import { discoverTranscripts } from "./claudeCode/discoverTranscripts.js";
import { walkTranscript } from "./claudeCode/transcriptWalk.js";
import { type JsonLinesRead, readJsonLines, resumeAfter } from "./jsonl.js";
import type { SessionInfo } from "./types.js";
import type { SkippedPath } from "./walk.js";

/** Claude Code transcripts: `$CLAUDE_CONFIG_DIR` (default `~/.claude`) `projects/`. */
export const claudeCodeAdapter: SourceAdapter = {
  agent: "claude-code",
  async discover(root) {
    const skipped: SkippedPath[] = [];
    return discovered("claude-code", discoverTranscripts(root, skipped), skipped);
  },
  async read(request) {
    return readTranscript(request);
  },
};

function readTranscript({ file, resume, window }: ReadRequest): ReadResult {
  const resumedState = resume === undefined ? undefined : parseClaudeState(resume.state);
  let read: JsonLinesRead;
  try {
    read = readJsonLines(file.path, resumedState === undefined ? undefined : resume, {
      limits: { maxBytes: window ?? Infinity },
    });
  } catch (error) {
    return { sessions: [], problems: [{ file: file.path, reason: `unreadable: ${errorMessage(error)}` }], skipped: 0 };
  }
  const parsed = read.records.map(toClaudeLine);
  const lines = parsed.filter((line): line is ClaudeLine => line !== undefined);
  const state = resumedState ?? initialState(file.path, lines);
  // Nothing that names a session yet: no resume either, so the next read starts from the top.
  if (state === undefined) return { sessions: [], problems: read.problems, skipped: parsed.length };
  const next = resumeAfter(read, state);
  const more = read.more ? { more: true } : {};
  if (state.warmup) return { sessions: [], problems: read.problems, skipped: parsed.length, ...next, ...more };

  const walk = walkTranscript({ file: file.path, state, lines, resumed: resumedState !== undefined });
  if (walk.rewritten) return { sessions: [], problems: [], skipped: 0, needsFullRead: true };
  const session = sessionInfo(file.path, state);
  return {
    sessions: [{ session, items: walk.items, ...(resumedState === undefined ? {} : { partial: true }) }],
    problems: read.problems,
    skipped: walk.skipped + (parsed.length - lines.length),
    ...next,
    ...more,
  };
}

function initialState(path: string, lines: readonly ClaudeLine[]): ClaudeState | undefined {
  const identity = claudeIdentity(path, lines);
  if (identity === undefined) return undefined;
  const { id, kind, parentId, subagent, warmup } = identity;
  return {
    v: 1,
    id,
    kind,
    ...(parentId ? { parentId } : {}),
    subagent,
    warmup,
    cwd: null,
    tail: { uuids: [] },
    tools: {},
    messageKeys: [],
  };
}

function sessionInfo(path: string, state: ClaudeState): SessionInfo {
  const fallback = state.startedAt === undefined || state.updatedAt === undefined ? fileMtime(path) : 0;
  const info: SessionInfo = {
    id: state.id,
    agent: "claude-code",
    kind: state.kind,
    cwd: state.cwd,
    startedAt: state.startedAt ?? fallback,
    updatedAt: state.updatedAt ?? fallback,
  };
  if (state.gitBranch) info.git = { branch: state.gitBranch };
  if (state.parentId) info.parentId = state.parentId;
  return info;
}

function fileMtime(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    // The file vanished after it was read; "now" is the best remaining guess.
    return Date.now();
  }
}
