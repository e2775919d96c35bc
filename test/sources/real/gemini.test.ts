import { existsSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { geminiAdapter } from "../../../src/sources/gemini.js";
import type { ItemRole } from "../../../src/sources/types.js";

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
const transcripts = resolve(repoRoot, "../shared/fixtures/transcripts");
const exists = existsSync(transcripts);
if (!exists) console.warn(`real gemini transcript suite skipped: ${transcripts} (../shared) is absent`);

/** Values checked by reading each file (see gemini/PROVENANCE.txt). */
const expected: Record<
  string,
  { id: string; startedAt: string; updatedAt: string; roles: Partial<Record<ItemRole, number>> }
> = {
  "session-2025-12-01T21-45-5b959dae.json": {
    id: "5b959dae-8655-4cd1-b10f-720b8c336ea2",
    startedAt: "2025-12-01T21:45:34.362Z",
    updatedAt: "2025-12-01T21:50:10.837Z",
    // 14 messages: 3 user, 11 gemini (3 with text; 8 carrying 10 tool calls, all with results).
    roles: { user: 3, assistant: 3, tool_call: 10, tool_result: 10 },
  },
};

describe.skipIf(!exists)("real gemini transcripts", () => {
  for (const [name, want] of Object.entries(expected)) {
    it(`parses ${name}`, async () => {
      const path = join(transcripts, "gemini", name);
      const result = await geminiAdapter.read({ file: { path, agent: "gemini" } });
      expect(result.problems).toEqual([]);
      expect(result.sessions).toHaveLength(1);
      const { session, items } = result.sessions[0]!;
      // Outside a `.gemini/tmp/<project>/chats` folder nothing says where the project was.
      expect(session).toEqual({
        id: want.id,
        agent: "gemini",
        kind: "interactive",
        cwd: null,
        startedAt: Date.parse(want.startedAt),
        updatedAt: Date.parse(want.updatedAt),
      });
      const roles: Partial<Record<ItemRole, number>> = {};
      for (const item of items) roles[item.role] = (roles[item.role] ?? 0) + 1;
      expect(roles).toEqual(want.roles);
      expect(new Set(items.map((item) => item.key)).size).toBe(items.length);
      const calls = items.filter((item) => item.role === "tool_call").map((item) => item.callId);
      const results = items.filter((item) => item.role === "tool_result").map((item) => item.callId);
      expect(results).toEqual(calls);
    });
  }

  it("parses any other chat file in the folder without throwing", async () => {
    const dir = join(transcripts, "gemini");
    const names = existsSync(dir) ? readdirSync(dir).filter((name) => /^session-.+\.jsonl?$/.test(name)) : [];
    for (const name of names.filter((name) => !(name in expected))) {
      const result = await geminiAdapter.read({ file: { path: join(dir, name), agent: "gemini" } });
      expect(result.sessions, name).toHaveLength(1);
      expect(result.sessions[0]?.items.length, name).toBeGreaterThan(0);
    }
  });
});
