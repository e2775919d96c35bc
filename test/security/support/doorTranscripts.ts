import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { DoorTexts } from "./secretCorpus.js";

/**
 * Small synthetic transcripts of the five agents, in their real formats, whose user text, assistant
 * text, tool input, tool output and file views are door texts (see secretCorpus.ts).
 */
const DAY = 86_400_000;
const AT = Date.now() - 5 * DAY;
const iso = (offset: number) => new Date(AT + offset * 1000).toISOString();
export const jsonl = (lines: unknown[]) => `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`;

function write(path: string, text: string): void {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
}

function writeClaudeCode(root: string, cwd: string, { door, fileView }: DoorTexts): void {
  const id = "5a0b1c2d-3e4f-4a51-8b62-7c83d94ea0aa";
  const base = { isSidechain: false, userType: "external", cwd, sessionId: id, version: "2.1.39", gitBranch: "main" };
  const uuid = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, "0")}`;
  const view = fileView("claude-file-view");
  write(
    join(root, "projects", cwd.replace(/[^a-zA-Z0-9]/g, "-"), `${id}.jsonl`),
    jsonl([
      {
        ...base,
        parentUuid: null,
        type: "user",
        message: { role: "user", content: door("claude-user") },
        uuid: uuid(1),
        timestamp: iso(1),
      },
      {
        ...base,
        parentUuid: uuid(1),
        type: "assistant",
        message: {
          role: "assistant",
          model: "claude-opus-4-6",
          id: "msg_1",
          type: "message",
          content: [
            { type: "text", text: door("claude-assistant") },
            { type: "tool_use", id: "toolu_1", name: "Bash", input: { command: door("claude-tool-input") } },
          ],
        },
        uuid: uuid(2),
        timestamp: iso(2),
      },
      {
        ...base,
        parentUuid: uuid(2),
        type: "user",
        message: {
          role: "user",
          content: [{ type: "tool_result", tool_use_id: "toolu_1", content: door("claude-tool-output") }],
        },
        uuid: uuid(3),
        timestamp: iso(3),
      },
      {
        ...base,
        parentUuid: uuid(3),
        type: "assistant",
        message: {
          role: "assistant",
          model: "claude-opus-4-6",
          id: "msg_2",
          type: "message",
          content: [{ type: "tool_use", id: "toolu_2", name: "Read", input: { file_path: `${cwd}/.env` } }],
        },
        uuid: uuid(4),
        timestamp: iso(4),
      },
      {
        ...base,
        parentUuid: uuid(4),
        type: "user",
        message: { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_2", content: view }] },
        uuid: uuid(5),
        timestamp: iso(5),
      },
    ]),
  );
}

function writeCodex(root: string, cwd: string, { door }: DoorTexts): void {
  const id = "0199c0de-aaaa-7bbb-8ccc-dddd00001111";
  const date = new Date(AT);
  const day = [date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate()].map((n) => String(n).padStart(2, "0"));
  const remote = "https://x-access-token:ghs_Z9yX8wV7uT6sR5qP4oN3mL2kJ1iH0gF9eD8c@github.com/acme/app.git";
  write(
    join(root, "sessions", ...day, `rollout-${iso(0).slice(0, 19).replace(/:/g, "-")}-${id}.jsonl`),
    jsonl([
      {
        timestamp: iso(0),
        type: "session_meta",
        payload: {
          id,
          timestamp: iso(0),
          cwd,
          originator: "codex_cli_rs",
          source: "cli",
          git: { commit_hash: "0a1b2c3d4e5f60718293a4b5c6d7e8f901234567", branch: "main", repository_url: remote },
        },
      },
      {
        timestamp: iso(1),
        type: "response_item",
        payload: { type: "message", role: "user", content: [{ type: "input_text", text: door("codex-user") }] },
      },
      {
        timestamp: iso(2),
        type: "response_item",
        payload: {
          type: "function_call",
          name: "shell",
          arguments: JSON.stringify({ command: ["bash", "-lc", door("codex-tool-input")] }),
          call_id: "call_1",
        },
      },
      {
        timestamp: iso(3),
        type: "response_item",
        payload: { type: "function_call_output", call_id: "call_1", output: door("codex-tool-output") },
      },
      {
        timestamp: iso(4),
        type: "response_item",
        payload: {
          type: "message",
          role: "assistant",
          content: [{ type: "output_text", text: door("codex-assistant") }],
        },
      },
    ]),
  );
}

function writePi(root: string, cwd: string, { door }: DoorTexts): void {
  const ms = (offset: number) => AT + offset * 1000;
  write(
    join(root, "sessions", "--work-app--", "2026-01-01T10-00-00-000Z_1111aaaa-2222-4333-8444-555566667777.jsonl"),
    jsonl([
      {
        type: "session",
        id: "1111aaaa-2222-4333-8444-555566667777",
        timestamp: iso(0),
        cwd,
        provider: "anthropic",
        modelId: "m",
      },
      { type: "message", timestamp: iso(1), message: { role: "user", content: door("pi-user"), timestamp: ms(1) } },
      {
        type: "message",
        timestamp: iso(2),
        message: {
          role: "assistant",
          content: [
            { type: "text", text: door("pi-assistant") },
            { type: "toolCall", id: "call_1", name: "bash", arguments: { command: door("pi-tool-input") } },
          ],
          provider: "anthropic",
          model: "m",
          stopReason: "toolUse",
          timestamp: ms(2),
        },
      },
      {
        type: "message",
        timestamp: iso(3),
        message: {
          role: "toolResult",
          toolCallId: "call_1",
          toolName: "bash",
          content: [{ type: "text", text: door("pi-tool-output") }],
          isError: false,
          timestamp: ms(3),
        },
      },
    ]),
  );
}

function writeGemini(root: string, { door }: DoorTexts): void {
  const hash = "c4193238d6f030edc345c5a5d49e2e243387daa6021feeb37f6cf61cb3f0b9aa";
  write(
    join(root, "tmp", hash, "chats", "session-2026-01-01T10-00-abcd1234.json"),
    JSON.stringify({
      sessionId: "abcd1234-2222-4333-8444-555566667777",
      projectHash: hash,
      startTime: iso(0),
      lastUpdated: iso(5),
      messages: [
        { id: "g-1", timestamp: iso(1), type: "user", content: door("gemini-user") },
        {
          id: "g-2",
          timestamp: iso(2),
          type: "gemini",
          content: door("gemini-assistant"),
          toolCalls: [
            {
              id: "run_shell_command-1",
              name: "run_shell_command",
              args: { command: door("gemini-tool-input") },
              result: [
                {
                  functionResponse: {
                    id: "run_shell_command-1",
                    name: "run_shell_command",
                    response: { output: door("gemini-tool-output") },
                  },
                },
              ],
              status: "success",
              timestamp: iso(2),
            },
          ],
        },
      ],
    }),
  );
}

function writeOpencode(root: string, cwd: string, { door }: DoorTexts): void {
  const storage = join(root, "storage");
  const project = "0f3c9a7e1b2d4c5e6f7a8b9c0d1e2f3a4b5c6d7a";
  const session = "ses_3a1f0c2d9ffeEveryDoor01";
  const ms = (offset: number) => AT + offset * 1000;
  write(
    join(storage, "project", `${project}.json`),
    JSON.stringify({ id: project, worktree: cwd, vcs: "git", time: { created: ms(0) } }),
  );
  write(
    join(storage, "session", project, `${session}.json`),
    JSON.stringify({
      id: session,
      projectID: project,
      directory: cwd,
      title: door("opencode-title"),
      version: "0.9.0",
      time: { created: ms(0), updated: ms(5) },
    }),
  );
  const messages = [
    { id: "msg_3a1f0c2e0001EveryDoor01", role: "user", time: { created: ms(1) } },
    {
      id: "msg_3a1f0c2e0002EveryDoor01",
      role: "assistant",
      parentID: "msg_3a1f0c2e0001EveryDoor01",
      time: { created: ms(2), completed: ms(4) },
      modelID: "m",
      providerID: "p",
      mode: "build",
      path: { cwd, root: cwd },
    },
  ];
  for (const message of messages) {
    write(join(storage, "message", session, `${message.id}.json`), JSON.stringify({ ...message, sessionID: session }));
  }
  const parts = [
    { message: messages[0]!.id, id: "prt_3a1f0c2e1001EveryDoor01", type: "text", text: door("opencode-user") },
    {
      message: messages[1]!.id,
      id: "prt_3a1f0c2e2002EveryDoor01",
      type: "tool",
      callID: "toolu_1",
      tool: "bash",
      state: {
        status: "completed",
        input: { command: door("opencode-tool-input") },
        output: door("opencode-tool-output"),
        title: "bash",
        metadata: {},
        time: { start: ms(3), end: ms(3) },
      },
    },
    {
      message: messages[1]!.id,
      id: "prt_3a1f0c2e2003EveryDoor01",
      type: "text",
      text: door("opencode-assistant"),
      time: { start: ms(4), end: ms(4) },
    },
  ];
  for (const { message, ...part } of parts) {
    write(
      join(storage, "part", message, `${part.id}.json`),
      JSON.stringify({ ...part, sessionID: session, messageID: message }),
    );
  }
}
export interface TranscriptRoots {
  claude: string;
  codex: string;
  pi: string;
  gemini: string;
  opencode: string;
}

/** One session per agent, started in `cwd` five days ago (old enough for phase 1). */
export function writeTranscripts(roots: TranscriptRoots, cwd: string, texts: DoorTexts): void {
  writeClaudeCode(roots.claude, cwd, texts);
  writeCodex(roots.codex, cwd, texts);
  writePi(roots.pi, cwd, texts);
  writeGemini(roots.gemini, texts);
  writeOpencode(roots.opencode, cwd, texts);
}
