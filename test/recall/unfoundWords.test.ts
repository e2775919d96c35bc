import { describe, expect, it } from "vitest";
import { makeStore } from "../memory/storeFixture.js";

const project = "git:example.com/acme/api";
const other = "git:example.com/acme/tool";
const memories = [
  { content: "Run the tests with `pnpm test`, and run them again after every rebase.", scope: project },
  { content: "Deploy to staging by pushing a tag; the pipeline deploys production after approval.", scope: project },
  { content: "Commits follow Conventional Commits with a short imperative subject.", scope: project },
  // A store of some size, where "run" is a common word, as it is in coding memories.
  ...["Apply", "Squash", "Review", "Number"].map((verb) => ({
    content: `${verb} the migrations in db/migrations before a release; each one is a plain SQL file.`,
    scope: other,
  })),
  // "run" in about a quarter of the memories, as in a store of coding memories.
  ...[
    "alpha",
    "bravo",
    "charlie",
    "delta",
    "echo",
    "foxtrot",
    "golf",
    "hotel",
    "india",
    "juliet",
    "kilo",
    "lima",
  ].flatMap((name, i) => [
    { content: `The ${name} module keeps its fixtures in tests/fixtures/${name}.`, scope: other },
    { content: `The ${name} handler logs through the shared logger with a request id.`, scope: other },
    { content: `${i % 2 ? "Run" : "Build"} the ${name} checks with make check-${name} before pushing.`, scope: other },
  ]),
  ...["Redis 7", "Postgres 16", "Node 22", "Go 1.23", "Python 3.12", "Terraform 1.9"].map((what) => ({
    content: `The service depends on ${what}, pinned in the lockfile.`,
    scope: other,
  })),
];

async function recall(unfoundWords: boolean, query: string) {
  // Zero vector weight: the scores are the keyword calibration alone.
  const { store } = makeStore({ config: { unfoundWords, alpha: 0 } });
  await store.remember(memories);
  const found = await store.recall({ query, scopes: [project, "global"], countUsage: false });
  return found.results.map((r) => ({ content: r.content, score: r.score }));
}

describe("calibration with words no memory in reach contains", () => {
  it("lowers confidence for a question the memories cannot answer instead of ignoring the unseen word", async () => {
    // No memory says "linter": ignored, the memory that says "run" twice looked like a perfect match.
    const ignored = await recall(false, "how do I run the linter?");
    expect(ignored[0]?.content).toMatch(/^Run the tests/);
    expect(ignored[0]!.score).toBeGreaterThanOrEqual(0.8);
    const counted = await recall(true, "how do I run the linter?");
    expect(counted[0]?.content).toMatch(/^Run the tests/);
    expect(counted[0]!.score).toBeLessThan(0.5);
  });

  it("counts a word only other projects say as the rarest word, not at its store-wide frequency", async () => {
    // "migrations" is common in the other project and absent from this one.
    const storeWide = await recall(false, "how do I run the migrations?");
    const inReach = await recall(true, "how do I run the migrations?");
    expect(inReach[0]?.content).toBe(storeWide[0]?.content);
    expect(inReach[0]!.score).toBeLessThan(storeWide[0]!.score);
    expect(inReach[0]!.score).toBeLessThan(0.5);
  });

  it("leaves an answerable question's order and scores alone", async () => {
    const query = "how do I deploy to staging?";
    expect(await recall(true, query)).toEqual(await recall(false, query));
  });
});
