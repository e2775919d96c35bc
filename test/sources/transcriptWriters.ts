import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { SourceAgent } from "../../src/sources/registry.js";

/** One conversation turn, as a user or an agent wrote it. */
export interface Turn {
  role: "user" | "assistant";
  text: string;
}

/** A session to write: its id (a UUID, or an OpenCode `ses_` id), when it started, its turns. */
export interface SessionToWrite {
  id: string;
  start: Date;
  turns: readonly Turn[];
}

export const WRITTEN_CWD = "/work/app";

/**
 * Transcript writers for several sessions of one project in each agent's own layout below `root`, in
 * the record shapes the adapter contracts write (test/sources/*.test.ts): a scan of `root` with the
 * agent's adapter imports them as separate sessions of the same working directory.
 */
export const transcriptWriters: Partial<
  Record<SourceAgent, (root: string, sessions: readonly SessionToWrite[]) => void>
> = {
  codex(root, sessions) {
    for (const session of sessions) {
      const stamp = session.start.toISOString().slice(0, 19).replaceAll(":", "-");
      const meta = {
        id: session.id,
        timestamp: at(session, 0),
        cwd: WRITTEN_CWD,
        originator: "codex_cli_rs",
        source: "cli",
      };
      const lines = [
        { timestamp: at(session, 0), type: "session_meta", payload: meta },
        ...session.turns.map((turn, index) => ({
          timestamp: at(session, index + 1),
          type: "event_msg",
          payload: { type: turn.role === "user" ? "user_message" : "agent_message", message: turn.text },
        })),
      ];
      write(join(root, `rollout-${stamp}-${session.id}.jsonl`), jsonLines(lines));
    }
  },

  "claude-code"(root, sessions) {
    for (const session of sessions) {
      let parentUuid: string | null = null;
      const lines = session.turns.map((turn, index) => {
        const uuid = `${session.id.slice(0, 24)}${String(index).padStart(12, "0")}`;
        const message =
          turn.role === "user"
            ? { role: "user", content: turn.text }
            : { id: `msg_${index}`, type: "message", role: "assistant", content: [{ type: "text", text: turn.text }] };
        const line = {
          parentUuid,
          isSidechain: false,
          userType: "external",
          cwd: WRITTEN_CWD,
          sessionId: session.id,
          type: turn.role,
          message,
          uuid,
          timestamp: at(session, index + 1),
        };
        parentUuid = uuid;
        return line;
      });
      write(join(root, "projects", "-work-app", `${session.id}.jsonl`), jsonLines(lines));
    }
  },

  pi(root, sessions) {
    for (const session of sessions) {
      const stamp = session.start.toISOString().replaceAll(":", "-").replace(".", "-");
      let parentId: string | null = null;
      const entries = session.turns.map((turn, index) => {
        const id = `e${String(index).padStart(7, "0")}`;
        const content = turn.role === "user" ? turn.text : [{ type: "text", text: turn.text }];
        const entry = {
          type: "message",
          id,
          parentId,
          timestamp: at(session, index + 1),
          message: { role: turn.role, content },
        };
        parentId = id;
        return entry;
      });
      const header = { type: "session", version: 3, id: session.id, timestamp: at(session, 0), cwd: WRITTEN_CWD };
      write(join(root, "sessions", "--work-app--", `${stamp}_${session.id}.jsonl`), jsonLines([header, ...entries]));
    }
  },

  gemini(root, sessions) {
    for (const session of sessions) {
      const stamp = session.start.toISOString().slice(0, 16).replace(":", "-");
      const meta = {
        sessionId: session.id,
        projectHash: "c0de",
        startTime: at(session, 0),
        lastUpdated: at(session, session.turns.length),
      };
      const messages = session.turns.map((turn, index) =>
        turn.role === "user"
          ? { id: `m-${index}`, timestamp: at(session, index + 1), type: "user", content: [{ text: turn.text }] }
          : { id: `m-${index}`, timestamp: at(session, index + 1), type: "gemini", content: turn.text },
      );
      write(join(root, `session-${stamp}-${session.id.slice(0, 8)}.jsonl`), jsonLines([meta, ...messages]));
    }
  },

  /** The JSON tree OpenCode kept before its database: one file per session, message and part. */
  opencode(root, sessions) {
    const storage = join(root, "storage");
    for (const session of sessions) {
      const created = session.start.getTime();
      const updated = created + session.turns.length * 1000;
      write(
        join(storage, "session", "prj_app", `${session.id}.json`),
        JSON.stringify({ id: session.id, directory: WRITTEN_CWD, title: "Session", time: { created, updated } }),
      );
      session.turns.forEach((turn, index) => {
        const messageId = `msg_${session.id.slice(-12)}${String(index).padStart(3, "0")}`;
        const time = { created: created + (index + 1) * 1000 };
        write(
          join(storage, "message", session.id, `${messageId}.json`),
          JSON.stringify({ id: messageId, sessionID: session.id, role: turn.role, time }),
        );
        const partId = `prt_${messageId.slice(4)}`;
        write(
          join(storage, "part", messageId, `${partId}.json`),
          JSON.stringify({ id: partId, sessionID: session.id, messageID: messageId, type: "text", text: turn.text }),
        );
      });
    }
  },
};

function at(session: SessionToWrite, second: number): string {
  return new Date(session.start.getTime() + second * 1000).toISOString();
}

function jsonLines(records: readonly object[]): string {
  return records.map((record) => `${JSON.stringify(record)}\n`).join("");
}

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}
