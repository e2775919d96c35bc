import { describe, expect, it } from "vitest";
import { openCairn } from "../../src/index.js";
import type { RememberInput } from "../../src/memory/types.js";
import { tempDir } from "../helpers/tempDir.js";

// The index side of recall under the `agent` profile (the default): what a memory is indexed with
// besides its own text. Facts a model extracts from one coding session sit side by side but are about
// different things, and a question's words must find the fact that says them, not its neighbours or a
// memory whose nouns share a dictionary category with the question's. Figures for each lever on both
// profiles: docs/experiments/recall-index-levers.md.

const scope = "git:example.com/acme/shop";

async function recalled(
  memories: RememberInput[],
  query: string,
  config: Record<string, unknown> = {},
): Promise<Map<string, number>> {
  const cairn = openCairn({
    home: tempDir("cairn-agent-index-"),
    env: {},
    config: { "llm.provider": "offline", ...config },
  });
  try {
    await cairn.remember(memories.map((m) => ({ scope, ...m })));
    const { results } = await cairn.recall({ query, scope, k: 10 });
    return new Map(results.map((r) => [r.content, r.score]));
  } finally {
    cairn.close();
  }
}

/** Four facts extracted from adjacent items of one session: one about deploys, three about other things. */
const LINT = "Lint with the ESLint flat config; `pnpm lint --fix` rewrites the imports in place.";
const DEPLOY = "Production deploys go out from the `release` branch; a merge there starts the rollout.";
const REDIS = "Integration tests need Redis on localhost:6379, started with `docker compose up redis`.";
const FLAGS = "Feature flags live in LaunchDarkly and new flags default to off in production.";
const SESSION: RememberInput[] = [LINT, DEPLOY, REDIS, FLAGS].map((content, i) => ({
  content,
  who: "fact-pipeline",
  provenance: { sessionId: "session-1", itemFrom: i + 4, itemTo: i + 4 },
  occurredAt: "2026-03-02T10:00:00Z",
}));

describe("the agent profile's index", () => {
  it("does not answer with a fact for what the session said next to it", async () => {
    const found = await recalled(SESSION, "which branch do deploys go out from?");
    expect([...found.keys()]).toEqual([DEPLOY]);
  });

  it("under the conversation profile, indexes a reply with what was said before it", async () => {
    // The same store read as turns of talk: the items beside the deploy fact carry its words.
    const found = await recalled(SESSION, "which branch do deploys go out from?", { "recall.profile": "conversation" });
    expect(found.has(REDIS) && found.has(LINT)).toBe(true);
  });

  const PAYMENT = "The payment flow confirms cards with 3-D Secure before capturing the charge.";
  const MIGRATION = "The orders table migration adds a NOT NULL column with a default, so it rewrites the table.";
  const PROJECT: RememberInput[] = [
    { content: PAYMENT, occurredAt: "2026-03-03T10:00:00Z" },
    { content: MIGRATION, occurredAt: "2026-03-04T10:00:00Z" },
    { content: "Staging runs on Fly.io in the ams region.", occurredAt: "2026-03-05T10:00:00Z" },
    { content: "The web app is built with Vite and served as static files.", occurredAt: "2026-03-06T10:00:00Z" },
  ];

  it("does not bring back a memory whose nouns only share a dictionary category with the question's", async () => {
    // WordNet files a migration under "change": the question's "changes" is not about it.
    const query = "what changes did we make to the payment flow?";
    expect([...(await recalled(PROJECT, query)).keys()]).toEqual([PAYMENT]);
    // Said in one session, the migration also carried the payment fact's words as its neighbour.
    const inSession = PROJECT.map((m, i) => ({ ...m, provenance: { sessionId: "session-2", itemFrom: i + 1 } }));
    expect([...(await recalled(inSession, query)).keys()]).toEqual([PAYMENT]);
  });

  it("still answers a question that names a date: the day a memory was said, or a date it names", async () => {
    const staging = PROJECT[2]!.content;
    expect([...(await recalled(PROJECT, "what did we change on 5 March 2026?")).keys()][0]).toBe(staging);
    // The memory writes the date as digits: only its calendar tokens meet the question's month.
    const support = "Node 18 support in the CLI is dropped on 2026-04-30; after that the minimum is Node 20.";
    const found = await recalled([...PROJECT, { content: support }], "what happens in April 2026?");
    expect([...found.keys()][0]).toBe(support);
    expect(found.get(support)).toBeGreaterThan(0.3);
  });
});
