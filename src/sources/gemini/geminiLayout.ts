import { basename, dirname, relative, sep } from "node:path";

/** Main sessions: `session-<time>-<id8>.json` (legacy, before v0.39) or `.jsonl`. */
const MAIN_SESSION = /^session-.+\.jsonl?$/;

/**
 * Whether `path` (found under `<root>/tmp`) is a chat file: `<slug>/chats/session-*.json[l]` or a subagent
 * `<slug>/chats/<parentSessionId>/<id>.jsonl`. Everything else in tmp (logs.json, checkpoints, tool
 * outputs, plans) is not a session.
 */
export function isChatFile(tmpDir: string, path: string): boolean {
  const parts = relative(tmpDir, path).split(sep);
  if (parts.length === 3) return parts[1] === "chats" && MAIN_SESSION.test(parts[2] ?? "");
  if (parts.length === 4) return parts[1] === "chats" && (parts[3] ?? "").endsWith(".jsonl");
  return false;
}

/** Where a chat file sits: its project folder (`tmp/<slug>`) and, for subagents, the parent session id. */
export interface ChatLocation {
  /** `<root>/tmp/<slug>`, or undefined when the file is not under a `chats` folder. */
  projectDir?: string;
  /** The `.gemini` folder holding `projects.json`. */
  geminiDir?: string;
  /** Set when the file lives in `chats/<parentSessionId>/`. */
  parentSessionId?: string;
}

export function chatLocation(path: string): ChatLocation {
  const folder = dirname(path);
  if (basename(folder) === "chats") return projectOf(folder);
  const chats = dirname(folder);
  if (basename(chats) === "chats") return { ...projectOf(chats), parentSessionId: basename(folder) };
  return {};
}

function projectOf(chatsDir: string): ChatLocation {
  const projectDir = dirname(chatsDir);
  const tmpDir = dirname(projectDir);
  return basename(tmpDir) === "tmp" ? { projectDir, geminiDir: dirname(tmpDir) } : { projectDir };
}
