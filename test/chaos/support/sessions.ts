import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface SyntheticSession {
  id: string;
  agent: "codex" | "claude-code";
  cwd: string;
  path: string;
}

const DAY = 86_400_000;

/** A UUID-shaped id that is stable per index, so failures name the same session on every run. */
export function sessionId(index: number, salt = 0): string {
  const hex = (index + salt * 100_000).toString(16).padStart(12, "0");
  return `0199c0de-${(salt % 0xffff).toString(16).padStart(4, "0")}-7000-8000-${hex}`;
}

/** A Codex rollout as Codex writes it: session_meta, then user and assistant messages. */
export function writeCodexSession(
  root: string,
  options: { id: string; cwd: string; at: number; turns: Array<[string, string]> },
): string {
  const date = new Date(options.at);
  const iso = (offset: number) => new Date(options.at + offset * 1000).toISOString();
  const day = join(
    root,
    "sessions",
    String(date.getUTCFullYear()),
    String(date.getUTCMonth() + 1).padStart(2, "0"),
    String(date.getUTCDate()).padStart(2, "0"),
  );
  mkdirSync(day, { recursive: true });
  const stamp = iso(0).slice(0, 19).replace(/:/g, "-");
  const path = join(day, `rollout-${stamp}-${options.id}.jsonl`);
  const lines: unknown[] = [
    {
      timestamp: iso(0),
      type: "session_meta",
      payload: { id: options.id, timestamp: iso(0), cwd: options.cwd, originator: "codex_cli_rs", source: "cli" },
    },
  ];
  options.turns.forEach(([user, assistant], turn) => {
    lines.push({ timestamp: iso(turn * 10 + 1), type: "event_msg", payload: { type: "user_message", message: user } });
    lines.push({
      timestamp: iso(turn * 10 + 2),
      type: "response_item",
      payload: { type: "message", role: "user", content: [{ type: "input_text", text: user }] },
    });
    lines.push({
      timestamp: iso(turn * 10 + 5),
      type: "response_item",
      payload: { type: "message", role: "assistant", content: [{ type: "output_text", text: assistant }] },
    });
  });
  writeFileSync(path, `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`);
  return path;
}

/** A Claude Code transcript: one JSON object per message, chained by parentUuid. */
export function writeClaudeSession(
  root: string,
  options: { id: string; cwd: string; at: number; turns: Array<[string, string]> },
): string {
  const dir = join(root, "projects", options.cwd.replace(/[^a-zA-Z0-9]/g, "-"));
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${options.id}.jsonl`);
  const lines: unknown[] = [];
  let parent: string | null = null;
  let n = 0;
  const base = { isSidechain: false, userType: "external", cwd: options.cwd, sessionId: options.id, version: "2.1.39" };
  for (const [user, assistant] of options.turns) {
    for (const [role, text] of [
      ["user", user],
      ["assistant", assistant],
    ] as const) {
      n += 1;
      const uuid = `00000000-0000-4000-8000-${n.toString(16).padStart(12, "0")}`;
      lines.push({
        ...base,
        parentUuid: parent,
        type: role,
        message:
          role === "user"
            ? { role, content: text }
            : { role, model: "claude-opus-4-6", id: `msg_${n}`, type: "message", content: [{ type: "text", text }] },
        uuid,
        timestamp: new Date(options.at + n * 5000).toISOString(),
      });
      parent = uuid;
    }
  }
  writeFileSync(path, `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`);
  return path;
}

/**
 * `count` sessions alternating Codex and Claude Code over `projects` working directories, between
 * 10 and 40 days old (inside a 3650-day age window, past any idle threshold).
 */
export function writeSessions(
  roots: { codex: string; claude: string },
  options: { count: number; projects: number; salt?: number; turns?: (index: number) => Array<[string, string]> },
): SyntheticSession[] {
  const now = Date.now();
  const sessions: SyntheticSession[] = [];
  for (let index = 0; index < options.count; index += 1) {
    const id = sessionId(index, options.salt ?? 0);
    const cwd = `/srv/chaos/project-${index % options.projects}`;
    const at = now - (10 + (index % 30)) * DAY - index * 60_000;
    const turns = options.turns?.(index) ?? [
      [`Please fix the failing build in module ${index}.`, `Fixed module ${index}: the import path was wrong.`],
      ["Always run the tests with npm run check before committing.", "Understood, I will run npm run check."],
    ];
    const codex = index % 2 === 0;
    const path = codex
      ? writeCodexSession(roots.codex, { id, cwd, at, turns })
      : writeClaudeSession(roots.claude, { id, cwd, at, turns });
    sessions.push({ id, agent: codex ? "codex" : "claude-code", cwd, path });
  }
  return sessions;
}
