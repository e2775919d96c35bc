import { describe, expect, it } from "vitest";
import type { RecallProfileName } from "../../src/config/recallProfiles.js";
import type { RememberInput } from "../../src/memory/types.js";
import { makeStore } from "../memory/storeFixture.js";

const scope = "git:example.com/acme/api";

async function scoreOf(profile: RecallProfileName, memories: RememberInput[], query: string, content: string) {
  const { store } = makeStore({ config: { profile } });
  await store.remember(memories.map((m) => ({ scope, ...m })));
  const found = await store.recall({ query, scopes: [scope], countUsage: false });
  return found.results.find((r) => r.content === content)?.score ?? 0;
}

const filler: RememberInput[] = ["Redis 7", "Postgres 16", "Node 22", "Go 1.23"].map((what) => ({
  content: `The service depends on ${what}, pinned in the lockfile.`,
  who: "fact-pipeline",
}));

describe("the agent profile on coding memories", () => {
  it("does not read 'the user' as a speaker and lower extracted facts next to remembered ones", async () => {
    const fact = "The user prefers pnpm for package installs and never runs npm in this repo.";
    const memories = [
      { content: fact, who: "fact-pipeline" },
      { content: "Deploys go through the staging pipeline first.", who: "user" },
      ...filler,
    ];
    const query = "what does the user prefer for package installs?";
    const agent = await scoreOf("agent", memories, query, fact);
    const conversation = await scoreOf("conversation", memories, query, fact);
    expect(agent).toBeGreaterThan(0.5);
    expect(conversation).toBeLessThan(agent * 0.7);
  });

  it("does not read a 'when' condition as a question for a date", async () => {
    const fact = "Run the migrations with `pnpm db:migrate` before starting the dev server after a pull.";
    const query = "When should I run the migrations?";
    const agent = await scoreOf("agent", [{ content: fact }, ...filler], query, fact);
    const conversation = await scoreOf("conversation", [{ content: fact }, ...filler], query, fact);
    expect(conversation).toBeLessThan(agent * 0.8);
  });

  it("keeps a crisp fact's score for a question asking for several things", async () => {
    const fact = "The build needs the flags --frozen-lockfile and --prod.";
    const query = "What flags does the build need?";
    const agent = await scoreOf("agent", [{ content: fact }, ...filler], query, fact);
    const conversation = await scoreOf("conversation", [{ content: fact }, ...filler], query, fact);
    expect(conversation).toBeLessThan(agent * 0.9);
  });
});
