import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { SourceAgent } from "../../src/sources/registry.js";

/** One conversation turn, as a user or an agent wrote it, or a shell command the agent ran and its result. */
export type Turn =
  | { role: "user"; text: string }
  | { role: "assistant"; text: string }
  | { role: "shell"; command: string; output: string; failed: boolean };

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
        ...session.turns.flatMap((turn, index): object[] => {
          const timestamp = at(session, index + 1);
          if (turn.role !== "shell") {
            const type = turn.role === "user" ? "user_message" : "agent_message";
            return [{ timestamp, type: "event_msg", payload: { type, message: turn.text } }];
          }
          // Unified exec: the call, then its output behind the "Process exited with code N" header.
          const call_id = `call_${index}`;
          const code = turn.failed ? 1 : 0;
          return [
            {
              timestamp,
              type: "response_item",
              payload: {
                type: "function_call",
                name: "exec_command",
                arguments: JSON.stringify({ cmd: turn.command }),
                call_id,
              },
            },
            {
              timestamp,
              type: "response_item",
              payload: {
                type: "function_call_output",
                call_id,
                output: `Wall time: 1.0 seconds\nProcess exited with code ${code}\nOutput:\n${turn.output}`,
              },
            },
          ];
        }),
      ];
      write(join(root, `rollout-${stamp}-${session.id}.jsonl`), jsonLines(lines));
    }
  },

  "claude-code"(root, sessions) {
    for (const session of sessions) {
      let parentUuid: string | null = null;
      const line = (type: "user" | "assistant", message: object, index: number, part = 0) => {
        const uuid = `${session.id.slice(0, 24)}${String(index * 2 + part).padStart(12, "0")}`;
        const record = {
          parentUuid,
          isSidechain: false,
          userType: "external",
          cwd: WRITTEN_CWD,
          sessionId: session.id,
          type,
          message,
          uuid,
          timestamp: at(session, index + 1),
        };
        parentUuid = uuid;
        return record;
      };
      const lines = session.turns.flatMap((turn, index) => {
        if (turn.role === "user") return [line("user", { role: "user", content: turn.text }, index)];
        if (turn.role === "assistant")
          return [
            line(
              "assistant",
              { id: `msg_${index}`, type: "message", role: "assistant", content: [{ type: "text", text: turn.text }] },
              index,
            ),
          ];
        const id = `toolu_${index}Bash`;
        return [
          line(
            "assistant",
            {
              id: `msg_${index}`,
              type: "message",
              role: "assistant",
              content: [{ type: "tool_use", id, name: "Bash", input: { command: turn.command } }],
            },
            index,
          ),
          line(
            "user",
            {
              role: "user",
              content: [{ type: "tool_result", tool_use_id: id, content: turn.output, is_error: turn.failed }],
            },
            index,
            1,
          ),
        ];
      });
      write(join(root, "projects", "-work-app", `${session.id}.jsonl`), jsonLines(lines));
    }
  },

  pi(root, sessions) {
    for (const session of sessions) {
      const stamp = session.start.toISOString().replaceAll(":", "-").replace(".", "-");
      let parentId: string | null = null;
      const entry = (message: object, index: number, part = 0) => {
        const id = `e${String(index * 2 + part).padStart(7, "0")}`;
        const record = { type: "message", id, parentId, timestamp: at(session, index + 1), message };
        parentId = id;
        return record;
      };
      const entries = session.turns.flatMap((turn, index) => {
        if (turn.role === "user") return [entry({ role: "user", content: turn.text }, index)];
        if (turn.role === "assistant")
          return [entry({ role: "assistant", content: [{ type: "text", text: turn.text }] }, index)];
        const id = `toolu_${index}`;
        const call = { type: "toolCall", id, name: "bash", arguments: { command: turn.command } };
        const result = {
          role: "toolResult",
          content: [{ type: "text", text: turn.output }],
          toolCallId: id,
          toolName: "bash",
          isError: turn.failed,
        };
        return [entry({ role: "assistant", content: [call] }, index), entry(result, index, 1)];
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
      const messages = session.turns.map((turn, index) => {
        const timestamp = at(session, index + 1);
        if (turn.role === "user") return { id: `m-${index}`, timestamp, type: "user", content: [{ text: turn.text }] };
        if (turn.role === "assistant") return { id: `m-${index}`, timestamp, type: "gemini", content: turn.text };
        const id = `run_shell_command-${index}`;
        const response = turn.failed ? { error: turn.output } : { output: turn.output };
        const call = {
          id,
          name: "run_shell_command",
          args: { command: turn.command },
          result: [{ functionResponse: { id, name: "run_shell_command", response } }],
          status: turn.failed ? "error" : "success",
          timestamp,
        };
        return { id: `m-${index}`, timestamp, type: "gemini", content: "", toolCalls: [call] };
      });
      // Gemini records no cwd: its project folder's .project_root names it (Gemini CLI >= 0.29).
      write(join(root, "tmp", "app", ".project_root"), WRITTEN_CWD);
      write(
        join(root, "tmp", "app", "chats", `session-${stamp}-${session.id.slice(0, 8)}.jsonl`),
        jsonLines([meta, ...messages]),
      );
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
        const role = turn.role === "user" ? "user" : "assistant";
        write(
          join(storage, "message", session.id, `${messageId}.json`),
          JSON.stringify({ id: messageId, sessionID: session.id, role, time }),
        );
        const partId = `prt_${messageId.slice(4)}`;
        const part =
          turn.role === "shell"
            ? {
                type: "tool",
                callID: `call_${index}`,
                tool: "bash",
                state: turn.failed
                  ? { status: "error", input: { command: turn.command }, error: turn.output }
                  : { status: "completed", input: { command: turn.command }, output: turn.output },
              }
            : { type: "text", text: turn.text };
        write(
          join(storage, "part", messageId, `${partId}.json`),
          JSON.stringify({ id: partId, sessionID: session.id, messageID: messageId, ...part }),
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
