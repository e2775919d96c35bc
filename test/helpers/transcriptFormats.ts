import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { SourceAgent } from "../../src/sources/registry.js";

/** One conversation to write in an agent's own format. */
export interface Conversation {
  /** A UUID-shaped id (Claude Code and Codex put it in the file name). */
  id: string;
  cwd: string;
  startedAt: number;
  turns: ReadonlyArray<{ role: "user" | "assistant"; text: string }>;
}

/** The formats that write one file per session: where `write` puts it below a source root. */
export const fileFormats = ["codex", "claude-code", "pi", "gemini"] as const;
export type FileFormat = (typeof fileFormats)[number] & SourceAgent;

const iso = (ms: number) => new Date(ms).toISOString();
const stamp = (ms: number) =>
  iso(ms)
    .replace(/:/g, "-")
    .replace(/\.\d+Z$/, "");
const lines = (records: unknown[]) => records.map((record) => `${JSON.stringify(record)}\n`).join("");

/**
 * Writes `conversation` below `root` in the layout and record shapes the agent writes (the same shapes
 * as the adapter contract suite in test/sources/), and returns the file's path.
 */
export function writeConversation(format: FileFormat, root: string, conversation: Conversation): string {
  const { id, cwd, startedAt, turns } = conversation;
  const at = (index: number) => iso(startedAt + index * 60_000);
  const place = (relative: string, text: string) => {
    const path = join(root, relative);
    mkdirSync(join(path, ".."), { recursive: true });
    writeFileSync(path, text);
    return path;
  };
  switch (format) {
    case "codex":
      return place(
        `rollout-${stamp(startedAt)}-${id}.jsonl`,
        lines([
          {
            timestamp: at(0),
            type: "session_meta",
            payload: { id, timestamp: at(0), cwd, originator: "codex_cli_rs", source: "cli" },
          },
          ...turns.map((turn, index) => ({
            timestamp: at(index + 1),
            type: "event_msg",
            payload: { type: turn.role === "user" ? "user_message" : "agent_message", message: turn.text },
          })),
        ]),
      );
    case "claude-code": {
      let parent: string | null = null;
      const records = turns.map((turn, index) => {
        const uuid = `${id.slice(0, 24)}${String(index).padStart(12, "0")}`;
        const message =
          turn.role === "user"
            ? { role: "user", content: turn.text }
            : { id: `msg_${index}`, type: "message", role: "assistant", content: [{ type: "text", text: turn.text }] };
        const record = {
          parentUuid: parent,
          isSidechain: false,
          userType: "external",
          cwd,
          sessionId: id,
          type: turn.role,
          message,
          uuid,
          timestamp: at(index),
        };
        parent = uuid;
        return record;
      });
      return place(join("projects", cwd.replace(/[^A-Za-z0-9]/g, "-"), `${id}.jsonl`), lines(records));
    }
    case "pi": {
      let parentId: string | null = null;
      const records = turns.map((turn, index) => {
        const entryId = `e${String(index).padStart(7, "0")}`;
        const content = turn.role === "user" ? turn.text : [{ type: "text", text: turn.text }];
        const record = {
          type: "message",
          id: entryId,
          parentId,
          timestamp: at(index + 1),
          message: { role: turn.role, content },
        };
        parentId = entryId;
        return record;
      });
      const folder = `--${cwd.replace(/^\//, "").replace(/\//g, "-")}--`;
      return place(
        join("sessions", folder, `${iso(startedAt).replace(/:/g, "-").replace(".", "-")}_${id.slice(0, 8)}.jsonl`),
        lines([{ type: "session", version: 3, id, timestamp: at(0), cwd }, ...records]),
      );
    }
    case "gemini": {
      // Gemini records no cwd: the project folder's .project_root names it.
      const slug = createHash("sha256").update(cwd).digest("hex").slice(0, 12);
      place(join("tmp", slug, ".project_root"), cwd);
      const meta = { sessionId: id, projectHash: slug, startTime: at(0), lastUpdated: at(turns.length) };
      const messages = turns.map((turn, index) =>
        turn.role === "user"
          ? { id: `m-${index}`, timestamp: at(index + 1), type: "user", content: [{ text: turn.text }] }
          : { id: `m-${index}`, timestamp: at(index + 1), type: "gemini", content: turn.text },
      );
      return place(
        join("tmp", slug, "chats", `session-${stamp(startedAt).slice(0, 16)}-${id.slice(0, 8)}.jsonl`),
        lines([meta, ...messages]),
      );
    }
  }
  throw new Error(`no writer for ${format as string}`);
}
