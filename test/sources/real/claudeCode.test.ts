import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { ReadResult } from "../../../src/sources/adapter.js";
import { claudeCodeAdapter } from "../../../src/sources/claudeCode.js";
import type { SessionItem } from "../../../src/sources/types.js";
import { walkFiles } from "../../../src/sources/walk.js";
import { tempDir } from "../../helpers/tempDir.js";

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
const DIR = join(resolve(repoRoot, "../shared/fixtures/transcripts"), "claude-code");
const present = existsSync(DIR);
if (!present)
  console.warn("test/sources/real/claudeCode.test.ts skipped: ../shared is absent (no real Claude Code transcripts)");

interface Expected {
  id: string;
  kind: string;
  cwd: string;
  parentId?: string;
  roles: Record<string, number>;
}

const SPOTTER = "ae4a77f8-aedd-4bc1-888f-c94edc91af04";
const CODEMIE = "e9fb405b-169f-40eb-9396-7e75076f045d";

/** Verified by reading each file: sessionId/agentId/cwd of its lines and its content blocks. */
const expected: Record<string, Expected | "warmup"> = {
  "spotter/short.jsonl": {
    id: "55604662-cf2a-4331-851a-ec234028f8ca",
    kind: "interactive",
    cwd: "/home/marco/projects/spotter",
    // Two parallel tool calls, both rejected; the /model lines are dropped, the interruption marker is a
    // system item.
    roles: { user: 1, assistant: 1, tool_call: 2, tool_result: 2, system: 1 },
  },
  "spotter/subagent.jsonl": {
    id: "491e126e-1e71-469c-ade2-fcc8af567c74",
    kind: "interactive",
    cwd: "/home/marco/projects/spotter",
    // The first request arrives as a slash command with arguments; its expanded skill body is isMeta. The
    // person stopped the agent once it was allowed to leave plan mode (a system item).
    roles: { user: 2, assistant: 7, tool_call: 16, tool_result: 16, system: 1 },
  },
  [`spotter/${SPOTTER}.EXCERPT-compaction.jsonl`]: {
    id: SPOTTER,
    kind: "interactive",
    cwd: "/home/USER/projects/spotter-worktrees/spotter-4te",
    roles: { tool_result: 1, assistant: 2, compaction: 1, user: 2, tool_call: 1, system: 1 },
  },
  [`spotter/${SPOTTER}/subagents/agent-aac57f5.jsonl`]: {
    id: `${SPOTTER}:agent-aac57f5`,
    kind: "subagent",
    cwd: "/home/USER/projects/spotter-worktrees/spotter-4te",
    parentId: SPOTTER,
    roles: { user: 1, assistant: 3, tool_call: 12, tool_result: 12 },
  },
  [`spotter/${SPOTTER}/subagents/agent-acompact-946d2b.jsonl`]: {
    id: `${SPOTTER}:agent-acompact-946d2b`,
    kind: "internal",
    cwd: "/home/USER/projects/spotter-worktrees/spotter-4te",
    parentId: SPOTTER,
    roles: { user: 1, assistant: 1 },
  },
  [`codemie-subagents/${CODEMIE}.jsonl`]: {
    id: CODEMIE,
    kind: "interactive",
    cwd: "/Users/User/repo/codemie-ai/codemie-code",
    // 14 tool_use blocks; one Bash result is empty.
    roles: { user: 1, assistant: 5, tool_call: 14, tool_result: 13 },
  },
  [`codemie-subagents/${CODEMIE}/subagents/agent-a485154.jsonl`]: {
    id: `${CODEMIE}:agent-a485154`,
    kind: "subagent",
    cwd: "/Users/User/repo/codemie-ai/codemie-code",
    parentId: CODEMIE,
    roles: { user: 1, assistant: 3, tool_call: 20, tool_result: 20 },
  },
  "codemie-legacy-agent-file/4c2ddfdc-b619-4525-8d03-1950fb1b0257.jsonl": {
    id: "4c2ddfdc-b619-4525-8d03-1950fb1b0257",
    kind: "interactive",
    cwd: "/tmp/private",
    roles: { user: 3, assistant: 4, tool_call: 6, tool_result: 5 },
  },
  "codemie-legacy-agent-file/agent-36541525.jsonl": "warmup",
  "codemie-legacy-agent-file/agent-50243ee8.jsonl": "warmup",
};

const read = (path: string, resume?: ReadResult["resume"]): Promise<ReadResult> =>
  claudeCodeAdapter.read({ file: { path, agent: "claude-code" }, ...(resume ? { resume } : {}) });

function roleCounts(items: SessionItem[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[item.role] = (counts[item.role] ?? 0) + 1;
  return counts;
}

describe.skipIf(!present)("claude code adapter on real transcripts", () => {
  it.each(Object.entries(expected))("%s", async (name, want) => {
    const result = await read(join(DIR, name));
    expect(result.problems).toEqual([]);
    if (want === "warmup") {
      expect(result.sessions).toEqual([]);
      return;
    }
    expect(result.sessions).toHaveLength(1);
    const { session, items } = result.sessions[0] ?? { session: undefined, items: [] };
    expect(session).toMatchObject({ id: want.id, agent: "claude-code", kind: want.kind, cwd: want.cwd });
    expect(session?.parentId).toBe(want.parentId);
    expect(roleCounts(items)).toEqual(want.roles);
  });

  it("covers every transcript in the folder", () => {
    const files = walkFiles(DIR, (name) => name.endsWith(".jsonl")).map((path) => path.slice(DIR.length + 1));
    expect(files.sort()).toEqual(Object.keys(expected).sort());
  });

  it("keeps harness noise out of every real transcript", async () => {
    for (const name of Object.keys(expected)) {
      const items = (await read(join(DIR, name))).sessions[0]?.items ?? [];
      // An interruption marker is kept as a system item, never as the person's words.
      const text = items
        .filter((item) => item.role !== "system")
        .map((item) => item.text)
        .join("\n");
      for (const noise of ["<command-name>", "<local-command-", "<system-reminder>", "[Request interrupted"]) {
        expect(text, `${name} contains ${noise}`).not.toContain(noise);
      }
      const results = items.filter((item) => item.role === "tool_result" && item.callId !== undefined);
      const calls = new Set(items.filter((item) => item.role === "tool_call").map((item) => item.callId));
      // Results whose call is in the file carry that call's tool name (the excerpt cuts one call off).
      for (const result of results) if (calls.has(result.callId)) expect(result.tool).toBeDefined();
    }
  });

  it.each(Object.keys(expected))("%s resumes from every line to the same items as a whole-file read", async (name) => {
    const lines = readFileSync(join(DIR, name), "utf8").split(/(?<=\n)/);
    const path = join(tempDir("cairn-real-claude-"), name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, lines.join(""));
    const full = (await read(path)).sessions[0]?.items ?? [];
    for (let cut = 1; cut < lines.length; cut += 1) {
      writeFileSync(path, lines.slice(0, cut).join(""));
      const first = await read(path);
      appendFileSync(path, lines.slice(cut).join(""));
      const second = await read(path, first.resume && JSON.parse(JSON.stringify(first.resume)));
      // None of these files branches, so appends never need a whole-file read.
      expect(second.needsFullRead).toBeUndefined();
      const merged = new Map<string, SessionItem>();
      for (const item of [...(first.sessions[0]?.items ?? []), ...(second.sessions[0]?.items ?? [])]) {
        merged.set(item.key, item);
      }
      expect([...merged.values()]).toEqual(full);
    }
  });
});
