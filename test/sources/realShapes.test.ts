import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { SourceAdapter } from "../../src/sources/adapter.js";
import { claudeCodeAdapter } from "../../src/sources/claudeCode.js";
import { codexAdapter } from "../../src/sources/codex.js";
import { geminiAdapter } from "../../src/sources/gemini.js";
import { ompAdapter, piAdapter } from "../../src/sources/pi.js";
import type { SessionItem } from "../../src/sources/types.js";
import { tempDir } from "../helpers/tempDir.js";
import { mergeByKey, readFile, stored } from "./adapterContract.js";

/**
 * The record shapes the real transcripts under ../shared exercise (test/sources/real/), written afresh
 * for this repository so a clone checks them too: parallel and rejected tool calls, slash commands and
 * their expanded bodies, hooks, compaction boundaries, internal and Task subagents (Claude Code); exec,
 * patch, web search and collaboration events with injected context (Codex); aborted and failed turns,
 * title slots and session exits (omp); forked v1 files (pi); multi-call legacy chats (Gemini).
 */
const fixtures = fileURLToPath(new URL("../fixtures/", import.meta.url));
const CLAUDE_SESSION = "1f2e3d4c-5b6a-4798-8a9b-0c1d2e3f4a5b";
const CLAUDE_DIR = join(fixtures, "claude-code", "shapes", "projects", "-home-dev-kiln");
const CODEX_THREAD = "0199f00d-aaaa-7bbb-8ccc-ddddeeeeffff";

interface Expected {
  adapter: SourceAdapter;
  session: { id: string; kind: string; cwd: string | null; parentId?: string };
  roles: Record<string, number>;
}

const expected: Record<string, Expected> = {
  [`claude-code/shapes/projects/-home-dev-kiln/${CLAUDE_SESSION}.jsonl`]: {
    adapter: claudeCodeAdapter,
    session: { id: CLAUDE_SESSION, kind: "interactive", cwd: "/home/dev/kiln" },
    // The slash command (with its arguments) is a request; its expanded body and the /model lines are
    // not, and the interruption is a system item. The silent mkdir has no result; both rejected parallel
    // calls have theirs.
    roles: { user: 4, assistant: 3, tool_call: 5, tool_result: 4, compaction: 1, system: 2 },
  },
  [`claude-code/shapes/projects/-home-dev-kiln/${CLAUDE_SESSION}/subagents/agent-a4b5c6d.jsonl`]: {
    adapter: claudeCodeAdapter,
    session: {
      id: `${CLAUDE_SESSION}:agent-a4b5c6d`,
      kind: "subagent",
      cwd: "/home/dev/kiln",
      parentId: CLAUDE_SESSION,
    },
    roles: { user: 1, assistant: 1, tool_call: 2, tool_result: 2 },
  },
  [`claude-code/shapes/projects/-home-dev-kiln/${CLAUDE_SESSION}/subagents/agent-acompact-7e21aa.jsonl`]: {
    adapter: claudeCodeAdapter,
    session: {
      id: `${CLAUDE_SESSION}:agent-acompact-7e21aa`,
      kind: "internal",
      cwd: "/home/dev/kiln",
      parentId: CLAUDE_SESSION,
    },
    roles: { user: 1, assistant: 1 },
  },
  [`codex/rollout-2026-05-02T10-00-00-${CODEX_THREAD}.jsonl`]: {
    adapter: codexAdapter,
    session: { id: CODEX_THREAD, kind: "interactive", cwd: "/home/dev/kiln" },
    // exec x2, web search, apply_patch, spawn_agent, wait_agent; the spawn has no result, and the silent
    // mkdir's result says its exit code (a quiet success is still a success).
    roles: { user: 1, assistant: 2, tool_call: 6, tool_result: 4 },
  },
  "omp/shapes/sessions/--home-dev-kiln--/2026-05-04T08-00-00-000Z_0190ffee-0000-7000-8000-00000000beef.jsonl": {
    adapter: ompAdapter,
    session: { id: "0190ffee-0000-7000-8000-00000000beef", kind: "interactive", cwd: "/home/dev/kiln" },
    // The aborted empty reply is dropped; an aborted call without a result is kept.
    roles: { user: 3, assistant: 4, tool_call: 4, tool_result: 3 },
  },
  "pi/v1-branched.jsonl": {
    adapter: piAdapter,
    session: {
      id: "5e5e5e5e-0000-4000-8000-000000000005",
      kind: "interactive",
      cwd: "/home/dev/kiln",
      parentId: "4d4d4d4d-0000-4000-8000-000000000004",
    },
    roles: { user: 2, assistant: 2, tool_call: 1, tool_result: 1, compaction: 1 },
  },
  "gemini/session-2025-12-03T10-00-c0ffee00.json": {
    adapter: geminiAdapter,
    // Outside a `.gemini/tmp/<project>/chats` folder nothing says where the project was.
    session: { id: "c0ffee00-1111-4222-8333-444455556666", kind: "interactive", cwd: null },
    roles: { user: 2, assistant: 2, tool_call: 3, tool_result: 3 },
  },
};

function roleCounts(items: readonly SessionItem[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[item.role] = (counts[item.role] ?? 0) + 1;
  return counts;
}

const itemsOf = async (name: string): Promise<SessionItem[]> => {
  const { adapter } = expected[name]!;
  return (await readFile(adapter, join(fixtures, name))).sessions[0]?.items ?? [];
};

describe("record shapes of real transcripts, in the repository's own fixtures", () => {
  it.each(Object.entries(expected))("%s", async (name, want) => {
    const result = await readFile(want.adapter, join(fixtures, name));
    expect(result.problems).toEqual([]);
    expect(result.sessions).toHaveLength(1);
    const { session, items } = result.sessions[0]!;
    expect(session).toMatchObject({ ...want.session, agent: want.adapter.agent });
    expect(session.parentId).toBe(want.session.parentId);
    expect(roleCounts(items)).toEqual(want.roles);
    expect(new Set(items.map((item) => item.key)).size).toBe(items.length);
    expect(items.every((item) => item.text.length > 0 && item.text === item.text.trim())).toBe(true);
  });

  it("keeps Claude Code's harness noise out and names the tool of every result", async () => {
    for (const name of Object.keys(expected).filter((key) => key.startsWith("claude-code"))) {
      const items = await itemsOf(name);
      // The interruption marker is kept, as a system item (the harness's note, not the person's words).
      const text = items
        .filter((item) => item.role !== "system")
        .map((item) => item.text)
        .join("\n");
      for (const noise of [
        "<command-name>",
        "<local-command-",
        "<system-reminder>",
        "[Request interrupted",
        "**Arguments**",
      ]) {
        expect(text, `${name} contains ${noise}`).not.toContain(noise);
      }
      for (const result of items.filter((item) => item.role === "tool_result")) expect(result.tool).toBeDefined();
    }
    const main = await itemsOf(`claude-code/shapes/projects/-home-dev-kiln/${CLAUDE_SESSION}.jsonl`);
    expect(main.filter((item) => item.role === "user").map((item) => item.text)).toEqual([
      "/kiln:plan split the glaze scheduler into a queue and a worker",
      "Only read the files, do not run the tests.",
      "/compact keep the plan",
      "Now write the queue module.",
    ]);
    expect(main.filter((item) => item.isError === true).map((item) => item.tool)).toEqual(["Bash", "Glob"]);
  });

  it("keeps Codex's injected AGENTS.md, environment and permission blocks out", async () => {
    const items = await itemsOf(`codex/rollout-2026-05-02T10-00-00-${CODEX_THREAD}.jsonl`);
    expect(items.filter((item) => item.role === "user").map((item) => item.text)).toEqual([
      "Why does the glaze queue drop jobs on restart?",
    ]);
    const text = items.map((item) => item.text).join("\n");
    for (const injected of ["# AGENTS.md instructions", "<environment_context>", "<permissions instructions>"]) {
      expect(text).not.toContain(injected);
    }
    const results = items.filter((item) => item.role === "tool_result");
    expect(results.map((item) => [item.tool, item.isError])).toEqual([
      ["exec_command", true],
      ["exec_command", false],
      ["apply_patch", false],
      ["wait_agent", undefined],
    ]);
    expect(items.find((item) => item.tool === "web_search")?.text).toBe("sqlite job queue durable restart");
  });

  it("pairs every Gemini tool result with its call", async () => {
    const items = await itemsOf("gemini/session-2025-12-03T10-00-c0ffee00.json");
    const calls = items.filter((item) => item.role === "tool_call").map((item) => item.callId);
    expect(items.filter((item) => item.role === "tool_result").map((item) => item.callId)).toEqual(calls);
  });

  const lineFormats = Object.keys(expected).filter((name) => name.endsWith(".jsonl"));
  it.each(lineFormats)("%s resumes from every line to the same items as a whole-file read", async (name) => {
    const { adapter } = expected[name]!;
    const lines = readFileSync(join(fixtures, name), "utf8").split(/(?<=\n)/);
    // The layout below the agent's folder names subagents and their parents: keep it.
    const path = join(tempDir("cairn-shapes-"), name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, lines.join(""));
    const full = (await readFile(adapter, path)).sessions[0]?.items ?? [];
    const firstAgentMessage = lines.findIndex((line) => line.includes('"type":"agent_message"'));
    for (let cut = 1; cut < lines.length; cut += 1) {
      writeFileSync(path, lines.slice(0, cut).join(""));
      const first = await readFile(adapter, path);
      appendFileSync(path, lines.slice(cut).join(""));
      const second = await readFile(adapter, path, stored(first.resume));
      // Before its first agent message a Codex file may still switch its text source: a full read then.
      if (second.needsFullRead && adapter === codexAdapter && cut <= firstAgentMessage) continue;
      expect(second.needsFullRead, `cut at line ${cut}`).toBeUndefined();
      expect(mergeByKey(first.sessions[0]?.items ?? [], second.sessions[0]?.items ?? []), `cut at line ${cut}`).toEqual(
        full,
      );
    }
  });
});

describe("the Claude Code shapes folder", () => {
  it("is discovered as one main transcript and its two subagents", async () => {
    const found = await claudeCodeAdapter.discover(join(fixtures, "claude-code", "shapes"));
    expect(found.map((file) => file.path.slice(CLAUDE_DIR.length + 1)).sort()).toEqual([
      `${CLAUDE_SESSION}.jsonl`,
      `${CLAUDE_SESSION}/subagents/agent-a4b5c6d.jsonl`,
      `${CLAUDE_SESSION}/subagents/agent-acompact-7e21aa.jsonl`,
    ]);
  });
});
