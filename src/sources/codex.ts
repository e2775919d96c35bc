import { statSync } from "node:fs";
import { basename } from "node:path";
import { discovered, type ReadRequest, type ReadResult, type SourceAdapter } from "./adapter.js";
import { discoverRollouts } from "./codex/discoverRollouts.js";
import { readRolloutRecords } from "./codex/readRolloutRecords.js";
import { isLegacyRollout, type RolloutLine, toRolloutLine } from "./codex/rolloutLine.js";
import type { RolloutParse } from "./codex/rolloutParse.js";
import { parseRolloutLines } from "./codex/rolloutParser.js";
import { type CodexState, initialCodexState, parseCodexState } from "./codex/rolloutState.js";
import { resumeAfter } from "./jsonl.js";
import type { SessionInfo } from "./types.js";
import type { SkippedPath } from "./walk.js";

/** OpenAI Codex CLI rollouts: `$CODEX_HOME` (default `~/.codex`) `sessions/` and `archived_sessions/`. */
export const codexAdapter: SourceAdapter = {
  agent: "codex",
  async discover(root) {
    const skipped: SkippedPath[] = [];
    return discovered("codex", discoverRollouts(root, skipped), skipped);
  },
  async read(request) {
    return readRollout(request);
  },
};

function readRollout({ file, resume, window }: ReadRequest): ReadResult {
  // A stored state this build cannot use means starting over from the top.
  const resumedState = resume === undefined ? undefined : parseCodexState(resume.state);
  const result = readRolloutRecords(file.path, {
    ...(resumedState === undefined ? {} : { from: resume }),
    ...(window === undefined ? {} : { window }),
  });
  if (!result.ok) return { sessions: [], problems: [result.problem], skipped: 0 };
  const { read, compressed } = result;
  const legacy = resumedState?.legacy ?? isLegacyRollout(read.records[0]?.value);
  const lines = read.records.map((record) => toRolloutLine(record, legacy));
  const known = lines.filter((line): line is RolloutLine => line !== undefined);
  if (resumedState === undefined && known.length === 0) return { sessions: [], problems: read.problems, skipped: 0 };

  const parse: RolloutParse = {
    file: file.path,
    state: resumedState ?? initialCodexState(legacy, known),
    items: [],
    skipped: lines.length - known.length,
    resumed: resumedState !== undefined,
    needsFullRead: false,
  };
  parseRolloutLines(parse, known);
  if (parse.needsFullRead) return { sessions: [], problems: [], skipped: 0, needsFullRead: true };

  const session = sessionInfo(file.path, parse);
  parse.state.updatedAt = session.updatedAt;
  parse.state.startedAt = session.startedAt;
  // A compressed rollout was read through a temporary plain copy: its offsets say nothing of the file.
  const next = compressed ? undefined : resumeAfter(read, parse.state);
  return {
    sessions: [{ session, items: parse.items, ...(parse.resumed ? { partial: true } : {}) }],
    problems: read.problems,
    skipped: parse.skipped,
    ...next,
    ...(next !== undefined && read.more ? { more: true } : {}),
  };
}

function sessionInfo(path: string, parse: RolloutParse): SessionInfo {
  const state: CodexState = parse.state;
  const mtime = fileMtime(path);
  const startedAt = state.startedAt ?? parse.firstTs ?? mtime;
  const info: SessionInfo = {
    id: state.id ?? idFromFileName(path),
    agent: "codex",
    kind: state.kind,
    cwd: state.cwd,
    startedAt,
    updatedAt: parse.lastTs ?? state.updatedAt ?? Math.max(mtime, startedAt),
  };
  if (state.git) info.git = state.git;
  if (state.parentId) info.parentId = state.parentId;
  return info;
}

const TRAILING_UUID = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl(\.zst)?$/i;

/** `rollout-<local time>-<thread uuid>.jsonl`: the uuid is the thread id; other names keep their stem. */
export function idFromFileName(path: string): string {
  const match = TRAILING_UUID.exec(path);
  return match?.[1] ?? basename(path).replace(/\.jsonl(\.zst)?$/, "");
}

function fileMtime(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    // The file vanished after it was read; "now" is the best remaining guess.
    return Date.now();
  }
}
