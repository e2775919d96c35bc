import { appendFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import type { SourceAdapter } from "../../../src/sources/adapter.js";
import { ompAdapter, piAdapter } from "../../../src/sources/pi.js";
import type { ItemRole, SessionKind } from "../../../src/sources/types.js";

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
const transcripts = resolve(repoRoot, "../shared/fixtures/transcripts");
const exists = existsSync(transcripts);
if (!exists) console.warn(`real pi/omp transcript suite skipped: ${transcripts} (../shared) is absent`);

interface Expected {
  adapter: SourceAdapter;
  id: string;
  kind: SessionKind;
  cwd: string | null;
  parentId?: string;
  roles: Partial<Record<ItemRole, number>>;
  problems: number;
}

/** Values checked by reading each file (see PROVENANCE.txt / NOTE.md next to them). */
const expected: Record<string, Expected> = {
  "pi/agentsview_pi_session.v3.synthetic.jsonl": {
    adapter: piAdapter,
    id: "pi-test-session-uuid",
    kind: "interactive",
    cwd: "/Users/alice/code/my-project",
    parentId: "parent-uuid",
    roles: { user: 2, assistant: 2, tool_call: 1, tool_result: 1, compaction: 1 },
    // The deliberately malformed line 10.
    problems: 1,
  },
  "pi/pi-mono_before-compaction.EXCERPT.v1.jsonl": {
    adapter: piAdapter,
    id: "ffae836b-9420-4060-ac13-7745215f90ff",
    kind: "interactive",
    cwd: "/Users/badlogic/workspaces/pi-mono",
    parentId: "d97339c6-6c10-4827-846b-9ff1d9c3dc37",
    roles: { user: 2, assistant: 6, tool_call: 7, tool_result: 8, compaction: 1 },
    problems: 0,
  },
  "omp/large-session.jsonl": {
    adapter: ompAdapter,
    id: "d703a1a9-1b7b-4fb1-b512-c9738b1fe617",
    kind: "interactive",
    cwd: "/Users/badlogic/workspaces/pi-mono",
    // 914 messages: 88 user, 453 assistant (244 text parts, 391 tool calls), 373 tool results.
    roles: { user: 88, assistant: 244, tool_call: 391, tool_result: 373 },
    problems: 0,
  },
};

const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!exists)("real pi and omp transcripts", () => {
  for (const [relative, want] of Object.entries(expected)) {
    it(`parses ${relative}`, async () => {
      const path = join(transcripts, relative);
      const result = await want.adapter.read({ file: { path, agent: want.adapter.agent } });
      expect(result.sessions).toHaveLength(1);
      const { session, items } = result.sessions[0]!;
      expect(session).toMatchObject({ id: want.id, agent: want.adapter.agent, kind: want.kind, cwd: want.cwd });
      expect(session.parentId).toBe(want.parentId);
      const roles: Partial<Record<ItemRole, number>> = {};
      for (const item of items) roles[item.role] = (roles[item.role] ?? 0) + 1;
      expect(roles).toEqual(want.roles);
      expect(result.problems).toHaveLength(want.problems);
      expect(new Set(items.map((item) => item.key)).size).toBe(items.length);
      expect(items.every((item) => item.text.length > 0 && item.ts !== undefined)).toBe(true);
    });
  }

  it("parses any other session file in the folders without throwing", async () => {
    for (const [folder, adapter] of [
      ["pi", piAdapter],
      ["omp", ompAdapter],
    ] as const) {
      const dir = join(transcripts, folder);
      const names = existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith(".jsonl")) : [];
      for (const name of names.filter((name) => !(`${folder}/${name}` in expected))) {
        const result = await adapter.read({ file: { path: join(dir, name), agent: adapter.agent } });
        expect(result.sessions, name).toHaveLength(1);
        expect(result.sessions[0]?.items.length, name).toBeGreaterThan(0);
      }
    }
  });

  it("resumes the large omp file from its middle to the same items as a full read", async () => {
    const source = readFileSync(join(transcripts, "omp/large-session.jsonl"));
    const cut = source.indexOf(0x0a, Math.floor(source.length / 2)) + 1;
    const dir = mkdtempSync(join(tmpdir(), "cairn-real-omp-"));
    temps.push(dir);
    const path = join(dir, "large-session.jsonl");
    writeFileSync(path, source.subarray(0, cut));
    const first = await ompAdapter.read({ file: { path, agent: "omp" } });
    appendFileSync(path, source.subarray(cut));
    const resume = first.resume;
    expect(resume).toBeDefined();
    const second = await ompAdapter.read({ file: { path, agent: "omp" }, ...(resume ? { resume } : {}) });
    const full = await ompAdapter.read({ file: { path, agent: "omp" } });
    expect(second.needsFullRead).toBeUndefined();
    expect([...(first.sessions[0]?.items ?? []), ...(second.sessions[0]?.items ?? [])]).toEqual(
      full.sessions[0]?.items,
    );
  });
});
