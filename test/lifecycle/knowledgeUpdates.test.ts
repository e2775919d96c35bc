import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Cairn } from "../../src/cairn.js";
import type { SourceAgent } from "../../src/sources/registry.js";
import { DAY_MS } from "../../src/util/clock.js";
import { tempDir } from "../helpers/tempDir.js";
import { transcriptWriters, WRITTEN_CWD } from "../sources/transcriptWriters.js";

/**
 * Knowledge updates end to end, offline defaults: a project's earlier session states how things are,
 * a later one changes them, with the agent's acknowledgements in between. After `run`, recall and the
 * injected summary give the new state and never present the old one as current.
 */
const CWD = WRITTEN_CWD;

/** Session ids in the shape each agent uses. */
const IDS: Partial<Record<SourceAgent, [string, string]>> = {
  codex: ["0199c0de-0000-7000-8000-0000000ad701", "0199c0de-0000-7000-8000-0000000ad702"],
  "claude-code": ["0a1b2c3d-0000-4000-8000-0000000ad701", "0a1b2c3d-0000-4000-8000-0000000ad702"],
  pi: ["c0de0000-aaaa-4bbb-8ccc-0000000ad701", "c0de0000-aaaa-4bbb-8ccc-0000000ad702"],
  gemini: ["ad700001-2222-4333-8444-555566667777", "ad700002-2222-4333-8444-555566667777"],
  opencode: ["ses_ad70000000000000000000001", "ses_ad70000000000000000000002"],
};

const before = [
  { role: "user", text: "We use npm in this repo; run the tests with npm test." },
  { role: "assistant", text: "Understood, I will use npm test." },
  { role: "user", text: "The API listens on port 3000 locally." },
  { role: "assistant", text: "Got it." },
  { role: "user", text: "Our database is MySQL 8." },
  { role: "assistant", text: "Noted, MySQL 8." },
] as const;

const after = [
  { role: "user", text: "We moved from npm to pnpm; never use npm here anymore." },
  { role: "assistant", text: "Understood, switching to pnpm." },
  { role: "user", text: "The API now listens on port 8080 locally." },
  { role: "assistant", text: "Sure, I'll use 8080 from now on." },
  { role: "user", text: "We migrated the database from MySQL to Postgres 16." },
  { role: "assistant", text: "Okay, Postgres 16 it is." },
] as const;

async function runFormat(format: SourceAgent): Promise<Cairn> {
  const root = tempDir(`cairn-updates-${format}-`);
  const sources = join(root, "sources");
  const now = Date.now();
  const [older, newer] = IDS[format]!;
  transcriptWriters[format]!(sources, [
    { id: older, start: new Date(now - 20 * DAY_MS), turns: before },
    { id: newer, start: new Date(now - 2 * DAY_MS), turns: after },
  ]);
  const cairn = new Cairn({
    home: join(root, "home"),
    config: {
      "llm.provider": "offline",
      "consolidation.mode": "offline",
      "memories.minRolloutIdleHours": 0,
      "collection.idleHours": 0,
    },
    env: {},
  });
  await cairn.run({ scan: { overrides: { [format]: [sources] }, only: [format] } });
  return cairn;
}

describe.each(Object.keys(IDS) as SourceAgent[])("knowledge updates from %s transcripts, offline", (format) => {
  it("recall and injection give the new state, never the old one as current", async () => {
    const cairn = await runFormat(format);
    try {
      const recalled = async (query: string) =>
        (await cairn.recall({ query, cwd: CWD, k: 5 })).results.map((result) => result.content);
      const pm = await recalled("which package manager does this repo use");
      expect(pm[0]).toMatch(/pnpm/);
      expect(pm.filter((text) => /\bnpm\b/.test(text) && !/pnpm/.test(text))).toEqual([]);
      const port = await recalled("what port does the API listen on locally");
      expect(port[0]).toMatch(/8080/);
      expect(port.some((text) => /3000/.test(text) && !/8080/.test(text))).toBe(false);
      const db = await recalled("which database do we use");
      expect(db[0]).toMatch(/Postgres 16/i);
      expect(db.some((text) => /MySQL/i.test(text) && !/Postgres/i.test(text))).toBe(false);

      const injected = cairn.inject(CWD).text;
      expect(injected).toMatch(/pnpm/);
      expect(injected).toMatch(/8080/);
      expect(injected).not.toMatch(/Understood|Got it|Sure, I'll/);
      for (const line of injected.split("\n")) {
        if (/port 3000/.test(line)) expect(line).toMatch(/8080|replaced|changed/i);
        if (/\bnpm test\b/.test(line)) expect(line).toMatch(/pnpm|replaced|changed/i);
      }
    } finally {
      cairn.close();
    }
  });
});
