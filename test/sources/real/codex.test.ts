import { appendFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { ReadResult } from "../../../src/sources/adapter.js";
import { codexAdapter } from "../../../src/sources/codex.js";
import type { SessionItem } from "../../../src/sources/types.js";
import { tempDir } from "../../helpers/tempDir.js";

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
const DIR = join(resolve(repoRoot, "../shared/fixtures/transcripts"), "codex");
const present = existsSync(DIR);
if (!present) console.warn("test/sources/real/codex.test.ts skipped: ../shared is absent (no real Codex rollouts)");

interface Expected {
  id: string;
  kind: string;
  cwd: string | null;
  branch?: string;
  roles: Record<string, number>;
}

/** Verified by reading each file: its session_meta and its event/response records. */
const expected: Record<string, Expected> = {
  "rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl": {
    id: "019e1625-789d-76c0-80ab-3724b5ddb799",
    kind: "interactive",
    cwd: "/Users/Sample_User/repos/codemie-ai/codemie-code",
    branch: "feat/codex-agent-plugin",
    // 2 user_message + 13 agent_message events; 99 function + 3 custom + 3 web search calls;
    // outputs with an empty body are left out unless they failed.
    roles: { user: 2, assistant: 13, tool_call: 105, tool_result: 96 },
  },
  "legacy-format_rollout-2025-08-06T18-02-11-05997ac9-0e06-4251-8576-cc16266d3022.jsonl": {
    id: "05997ac9-0e06-4251-8576-cc16266d3022",
    kind: "interactive",
    cwd: null,
    branch: "main",
    roles: { user: 1, assistant: 1, tool_call: 26, tool_result: 26 },
  },
  "codemie-synthetic-turn-2.jsonl": {
    id: "a1b2c3d4-e5f6-7890-abcd-ef1234567890",
    kind: "exec",
    cwd: "/home/user/project",
    branch: "main",
    roles: { user: 2, assistant: 2 },
  },
  "codemie-synthetic-turn-spawn-skill.jsonl": {
    id: "spawn-test-uuid",
    kind: "interactive",
    cwd: "/home/user/project",
    branch: "main",
    roles: { user: 1, tool_call: 3, tool_result: 1 },
  },
  "current-format_fixture_rollout-2025-01-05T12-00-00-EXAMPLE.jsonl": {
    id: "67e55044-10b1-426f-9247-bb680e5fe0c8",
    kind: "interactive",
    cwd: "/",
    roles: { user: 1 },
  },
};

const read = (path: string, resume?: ReadResult["resume"]): Promise<ReadResult> =>
  codexAdapter.read({ file: { path, agent: "codex" }, ...(resume ? { resume } : {}) });

function roleCounts(items: SessionItem[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[item.role] = (counts[item.role] ?? 0) + 1;
  return counts;
}

describe.skipIf(!present)("codex adapter on real rollouts", () => {
  it.each(Object.entries(expected))("%s", async (name, want) => {
    const result = await read(join(DIR, name));
    expect(result.problems).toEqual([]);
    expect(result.sessions).toHaveLength(1);
    const { session, items } = result.sessions[0] ?? { session: undefined, items: [] };
    expect(session).toMatchObject({ id: want.id, agent: "codex", kind: want.kind, cwd: want.cwd });
    expect(session?.git?.branch).toBe(want.branch);
    expect(roleCounts(items)).toEqual(want.roles);
    expect(items.every((item) => item.text.length > 0 && item.text === item.text.trim())).toBe(true);
  });

  it("keeps the injected AGENTS.md, environment and permission blocks out of a real session", async () => {
    const name = "rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl";
    const items = (await read(join(DIR, name))).sessions[0]?.items ?? [];
    expect(items.filter((item) => item.role === "user").map((item) => item.text)).toEqual([
      "show tools",
      "let's update the defailt context compart to 90 in env var",
    ]);
    const text = items.map((item) => item.text).join("\n");
    expect(text).not.toContain("# AGENTS.md instructions");
    expect(text).not.toContain("<environment_context>");
    expect(text).not.toContain("<permissions instructions>");
    // Every output found its call; four commands exited non-zero (three with code 1, one with code 2).
    // Each was still running when exec_command answered: the polls that saw it exit say so, and the
    // command's own result comes from its exec_command_end, so the failure is the command's.
    const results = items.filter((item) => item.role === "tool_result");
    expect(results.every((item) => item.tool !== undefined)).toBe(true);
    const failed = (tool: string) => results.filter((item) => item.tool === tool && item.isError === true);
    expect(failed("write_stdin")).toHaveLength(4);
    expect(failed("exec_command").map((item) => item.text.split("\n")[0])).toEqual([
      "rg: node_modules/opencode-ai: No such file or directory (os error 2)",
      "(no output, exit code 1)",
      "(no output, exit code 1)",
      "> @codemieai/code@0.0.51 test",
    ]);
  });

  it.each(Object.keys(expected))("%s resumes to the same items as a whole-file read", async (name) => {
    const lines = readFileSync(join(DIR, name), "utf8").split(/(?<=\n)/);
    const path = join(tempDir("cairn-real-codex-"), name);
    writeFileSync(path, lines.join(""));
    const full = (await read(path)).sessions[0]?.items ?? [];
    // Until both kinds of event text have appeared once, a file may still switch its text source.
    const lastFirstEvent = Math.max(
      lines.findIndex((line) => line.includes('"type":"user_message"')),
      lines.findIndex((line) => line.includes('"type":"agent_message"')),
    );
    const step = Math.max(1, Math.floor(lines.length / 12));
    for (let cut = 1; cut < lines.length; cut += step) {
      writeFileSync(path, lines.slice(0, cut).join(""));
      const first = await read(path);
      appendFileSync(path, lines.slice(cut).join(""));
      const second = await read(path, first.resume && JSON.parse(JSON.stringify(first.resume)));
      if (second.needsFullRead) {
        expect(cut).toBeLessThanOrEqual(lastFirstEvent);
        continue;
      }
      const merged = new Map<string, SessionItem>();
      for (const item of [...(first.sessions[0]?.items ?? []), ...(second.sessions[0]?.items ?? [])]) {
        merged.set(item.key, item);
      }
      expect([...merged.values()]).toEqual(full);
    }
  });
});
