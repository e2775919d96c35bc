import { statSync } from "node:fs";
import { basename } from "node:path";
import { parseTime } from "../../util/clock.js";
import { errorMessage } from "../../util/errors.js";
import type { ReadResult } from "../adapter.js";
import { asString, readJsonLines } from "../jsonl.js";
import type { SessionInfo } from "../types.js";
import { overWholeFileLimit, WHOLE_FILE_LIMIT } from "../wholeFileLimit.js";
import type { GeminiConversation } from "./conversation.js";
import { type ChatLocation, chatLocation } from "./geminiLayout.js";
import { messageItems } from "./messageItems.js";
import { projectCwd } from "./projectCwd.js";
import { readLegacyJson } from "./readLegacyJson.js";
import { replayJsonl } from "./replayJsonl.js";

/**
 * Reads one Gemini CLI chat file completely. Both formats are whole-file: the legacy .json is rewritten on
 * every update and the JSONL is replayed (`$set`, `$rewindTo`, last-wins ids), so no resume point is given.
 */
export function readGeminiFile(file: string, limit = WHOLE_FILE_LIMIT): ReadResult {
  let conversation: GeminiConversation;
  let mtime: number;
  try {
    const tooLarge = overWholeFileLimit(file, limit);
    if (tooLarge) return { sessions: [], problems: [tooLarge], skipped: 0 };
    mtime = statSync(file).mtimeMs;
    conversation = file.endsWith(".jsonl") ? replayFile(file) : readLegacyJson(file);
  } catch (error) {
    return { sessions: [], problems: [{ file, reason: `unreadable: ${errorMessage(error)}` }], skipped: 0 };
  }
  const { meta, messages, problems } = conversation;
  if (asString(meta.sessionId) === undefined && messages.length === 0) {
    return { sessions: [], problems, skipped: conversation.skipped };
  }
  if (asString(meta.sessionId) === undefined) {
    problems.push({ file, reason: "no session metadata; session id taken from the file name" });
  }
  const collected = messageItems(messages, file);
  const times = messages.map((message) => parseTime(message.record.timestamp)).filter((ts) => ts !== undefined);
  const session = sessionInfo(meta, chatLocation(file), { file, mtime, times });
  return {
    sessions: [{ session, items: collected.items }],
    problems,
    skipped: conversation.skipped + collected.skipped,
  };
}

function replayFile(file: string): GeminiConversation {
  const lines = readJsonLines(file);
  const conversation = replayJsonl(lines.records, file);
  conversation.problems.unshift(...lines.problems);
  return conversation;
}

function sessionInfo(
  meta: Record<string, unknown>,
  location: ChatLocation,
  facts: { file: string; mtime: number; times: number[] },
): SessionInfo {
  const subagent = meta.kind === "subagent" || location.parentSessionId !== undefined;
  const startedAt = parseTime(meta.startTime) ?? (facts.times.length > 0 ? Math.min(...facts.times) : facts.mtime);
  const lastUpdated = parseTime(meta.lastUpdated);
  const updated = [...facts.times, ...(lastUpdated === undefined ? [] : [lastUpdated])];
  const session: SessionInfo = {
    id: asString(meta.sessionId) ?? basename(facts.file).replace(/\.jsonl?$/, ""),
    agent: "gemini",
    kind: subagent ? "subagent" : "interactive",
    cwd: projectCwd(location, asString(meta.projectHash)) ?? (subagent ? firstDirectory(meta.directories) : null),
    startedAt,
    updatedAt: updated.length > 0 ? Math.max(startedAt, ...updated) : facts.mtime,
  };
  const title = asString(meta.summary)?.trim();
  if (title) session.title = title;
  if (location.parentSessionId) session.parentId = location.parentSessionId;
  return session;
}

/** Subagent headers list the workspace directories, the project root first. */
function firstDirectory(directories: unknown): string | null {
  return Array.isArray(directories) && typeof directories[0] === "string" ? directories[0] : null;
}
