import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Cairn } from "../../src/cairn.js";
import type { SourceAgent } from "../../src/sources/registry.js";
import { DAY_MS } from "../../src/util/clock.js";
import { chatAnswer, chatRequest, fakeModelConfig, quotedData } from "../helpers/fakeChatModel.js";
import { type LoopbackServer, type RecordedRequest, startLoopbackServer } from "../helpers/loopbackServer.js";
import { tempDir } from "../helpers/tempDir.js";
import { transcriptWriters, WRITTEN_CWD } from "../sources/transcriptWriters.js";

/**
 * Knowledge updates with a model: a fake OpenAI-compatible server extracts each session's facts and
 * decides them UPDATE (a changed value), DELETE (something dropped) or NONE (said again). After `run`,
 * recall and injection give the new state and never present the old one as current.
 */
const OLDER_FACTS = [
  "The project uses npm as its package manager and runs the tests with npm test.",
  "The API listens on port 3000 locally.",
  "The service caches API responses in Redis.",
  "The API is written in TypeScript.",
];
const NEWER_FACTS = [
  "The project uses pnpm as its package manager and npm must not be used.",
  "The API listens on port 8080 locally.",
  "Redis was removed from the service.",
  "The API is written in TypeScript.",
];

const words = (text: string) => new Set(text.toLowerCase().match(/[a-z0-9]+/g) ?? []);
const overlap = (a: string, b: string) => [...words(a)].filter((w) => words(b).has(w)).length;

type DecisionData = {
  facts: Array<{ fact: number; content: string; candidates: Array<{ id: number; content: string }> }>;
};

/** The decision a careful model would take for one fact against its candidates. */
function decide(fact: DecisionData["facts"][number]) {
  const same = fact.candidates.find((c) => c.content === fact.content);
  if (same) return { action: "NONE", targetId: same.id, reason: "already stored" };
  if (/was removed/.test(fact.content)) {
    const gone = fact.candidates.find((c) => /redis/i.test(c.content));
    if (gone) return { action: "DELETE", targetId: gone.id, reason: "Redis is gone" };
  }
  const closest = [...fact.candidates].sort(
    (a, b) => overlap(fact.content, b.content) - overlap(fact.content, a.content),
  )[0];
  if (closest && overlap(fact.content, closest.content) >= 4)
    return { action: "UPDATE", targetId: closest.id, reason: "the value changed" };
  return { action: "ADD", reason: "new" };
}

function reply(request: RecordedRequest) {
  const { prompt, schema } = chatRequest(request);
  let answer: unknown;
  if (schema === "fact_decisions") {
    const data = quotedData<DecisionData>(prompt);
    answer = { decisions: data.facts.map((f) => ({ fact: f.fact, confidence: 0.9, ...decide(f) })) };
  } else {
    const facts = prompt.includes("pnpm") ? NEWER_FACTS : OLDER_FACTS;
    const item = Number(/"id":(\d+)/.exec(prompt)?.[1] ?? 1);
    answer = {
      rollout_summary: "Talked about the project setup.",
      rollout_slug: "project-setup",
      raw_memory: `## Facts\n${facts.map((fact) => `- ${fact}`).join("\n")}`,
      facts: facts.map((content) => ({ content, type: "fact", confidence: 0.9, evidence: [item] })),
      entities: [],
    };
  }
  return chatAnswer(answer);
}

const IDS: Partial<Record<SourceAgent, [string, string]>> = {
  codex: ["0199c0de-0000-7000-8000-0000000bd701", "0199c0de-0000-7000-8000-0000000bd702"],
  "claude-code": ["0a1b2c3d-0000-4000-8000-0000000bd701", "0a1b2c3d-0000-4000-8000-0000000bd702"],
  pi: ["c0de0000-aaaa-4bbb-8ccc-0000000bd701", "c0de0000-aaaa-4bbb-8ccc-0000000bd702"],
  gemini: ["bd700001-2222-4333-8444-555566667777", "bd700002-2222-4333-8444-555566667777"],
  opencode: ["ses_bd70000000000000000000001", "ses_bd70000000000000000000002"],
};

describe("knowledge updates decided by a model (UPDATE, DELETE, NONE)", () => {
  let server: LoopbackServer;
  beforeAll(async () => {
    server = await startLoopbackServer((request) =>
      request.path === "/v1/models" ? { body: { object: "list", data: [{ id: "fake-model" }] } } : reply(request),
    );
  });
  afterAll(() => server.close());

  it.each(Object.keys(IDS) as SourceAgent[])("%s transcripts", async (format) => {
    const root = tempDir(`cairn-model-updates-${format}-`);
    const sources = join(root, "sources");
    const now = Date.now();
    const [older, newer] = IDS[format]!;
    transcriptWriters[format]!(sources, [
      {
        id: older,
        start: new Date(now - 20 * DAY_MS),
        turns: [
          { role: "user", text: "We use npm here, the API runs on port 3000 and Redis caches responses." },
          { role: "assistant", text: "Understood." },
        ],
      },
      {
        id: newer,
        start: new Date(now - 2 * DAY_MS),
        turns: [
          { role: "user", text: "We switched to pnpm, the API moved to port 8080 and we removed Redis." },
          { role: "assistant", text: "Got it, switching to pnpm." },
        ],
      },
    ]);
    const cairn = new Cairn({
      home: join(root, "home"),
      env: { HOME: root },
      config: {
        ...fakeModelConfig(server),
        "consolidation.mode": "offline",
        "memories.minRolloutIdleHours": 0,
        "collection.idleHours": 0,
      },
    });
    try {
      // Sessions are extracted one by one, oldest first, as a user running cairn every day would.
      await cairn.scan({ overrides: { [format]: [sources] }, only: [format] });
      await cairn.extract({ sessionIds: [older] });
      await cairn.run({ scan: { overrides: { [format]: [sources] }, only: [format] } });
      const live = cairn.storage.db
        .prepare("SELECT content FROM memories WHERE deleted_at IS NULL ORDER BY id")
        .all()
        .map((row) => (row as { content: string }).content);
      expect(live.filter((text) => text === "The API is written in TypeScript.")).toHaveLength(1);
      expect(live.some((text) => /caches API responses in Redis/.test(text))).toBe(false);
      expect(live.some((text) => /port 3000/.test(text))).toBe(false);
      expect(live.some((text) => /uses npm as/.test(text))).toBe(false);

      const first = async (query: string) =>
        (await cairn.recall({ query, cwd: WRITTEN_CWD, k: 5 })).results[0]?.content;
      expect(await first("which package manager does the project use")).toMatch(/pnpm/);
      expect(await first("what port does the API listen on locally")).toMatch(/8080/);

      const injected = cairn.inject(WRITTEN_CWD).text;
      for (const line of injected.split("\n")) {
        if (/port 3000/.test(line)) expect(line).toMatch(/replaced|withdrawn/);
        if (/caches API responses in Redis/.test(line)) expect(line).toMatch(/replaced|withdrawn/);
      }
    } finally {
      cairn.close();
    }
  });
});
