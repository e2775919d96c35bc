import { describe, expect, it } from "vitest";
import { type Cairn, openCairn } from "../../src/index.js";
import { pushingCairn } from "../helpers/pushingCairn.js";
import { tempDir } from "../helpers/tempDir.js";

/** Two projects' memories; each pair of spellings is split between them, with neighbours that share neither. */
const WRITTEN_LONG = {
  scope: "web",
  memories: [
    "End-to-end tests run with Playwright against the preview build.",
    "Unit tests run with Vitest in forks mode.",
    "Run lint with `pnpm lint` before every commit; CI rejects warnings.",
    "Install dependencies with pnpm install --frozen-lockfile.",
    "The API server listens on port 8080 behind the Caddy proxy.",
  ],
};
const WRITTEN_SHORT = {
  scope: "cli",
  memories: [
    "The e2e suite needs the demo merchant seeded before it starts.",
    "The linter is Biome, configured in biome.json.",
    "Deps are pinned to exact versions in package.json.",
    "Releases are tagged v-prefixed and published by the release workflow.",
  ],
};

/** Each question says one thing in the other spelling, and the memory that says it in this one. */
const CASES: Array<[query: string, scope: string, memory: string]> = [
  ["e2e?", WRITTEN_LONG.scope, WRITTEN_LONG.memories[0]!],
  ["linter?", WRITTEN_LONG.scope, WRITTEN_LONG.memories[2]!],
  ["deps?", WRITTEN_LONG.scope, WRITTEN_LONG.memories[3]!],
  ["end-to-end?", WRITTEN_SHORT.scope, WRITTEN_SHORT.memories[0]!],
  ["lint?", WRITTEN_SHORT.scope, WRITTEN_SHORT.memories[1]!],
  ["dependencies?", WRITTEN_SHORT.scope, WRITTEN_SHORT.memories[2]!],
];

/** The hashed sketch, not the default word vectors, which join some of these spellings on their own. */
function open(home: string, config: Record<string, unknown> = {}): Cairn {
  return openCairn({
    home,
    env: {},
    config: { "llm.provider": "offline", "embeddings.provider": "hashed", ...config },
  });
}

async function found(cairn: Cairn, query: string, scope: string): Promise<string[]> {
  const { results } = await cairn.recall({ query, scope, k: 3 });
  return results.map((r) => r.content);
}

describe("recall across the vocabulary of code", () => {
  it("meets a remembered memory by the other spelling, in both directions", async () => {
    const home = tempDir("cairn-vocab-");
    const cairn = open(home);
    for (const { scope, memories } of [WRITTEN_LONG, WRITTEN_SHORT])
      await cairn.remember(memories.map((content) => ({ content, scope })));
    for (const [query, scope, memory] of CASES) expect((await found(cairn, query, scope))[0], query).toBe(memory);
    cairn.close();

    // The same store with the table switched off: the other spelling alone reaches none of them.
    const plain = open(home, { "recall.codeVocabulary": false });
    for (const [query, scope, memory] of CASES) expect(await found(plain, query, scope), query).not.toContain(memory);
    plain.close();
  });

  it("meets a memory that names the tool when the question names its kind", async () => {
    const home = tempDir("cairn-vocab-");
    const cairn = open(home);
    const memories = [
      "The billing worker was ported to Deno; start it with `deno task dev`.",
      "Install everything with `yarn install --immutable`; the lockfile is yarn.lock.",
      "The billing worker reads its settings from settings.toml next to the binary.",
      "Pull requests need one approving review before merge.",
    ];
    await cairn.remember(memories.map((content) => ({ content, scope: "billing" })));
    const cases: Array<[string, string]> = [
      ["which runtime does the billing worker run on?", memories[0]!],
      ["what package manager do we use?", memories[1]!],
    ];
    for (const [query, memory] of cases) expect((await found(cairn, query, "billing"))[0], query).toBe(memory);
    cairn.close();

    const plain = open(home, { "recall.codeVocabulary": false });
    expect(await found(plain, cases[1]![0], "billing")).not.toContain(cases[1]![1]);
    plain.close();
  });

  it("meets an extracted memory by the other spelling, also after the store is reopened", async () => {
    const home = tempDir("cairn-vocab-");
    const { cairn, push } = pushingCairn(home, { id: "s1", cwd: "/srv/app" });
    push("user", "Always run the end-to-end tests with pnpm test:browser before pushing.");
    push("assistant", "Noted.");
    push("user", "Always run the linter with pnpm check before committing.");
    push("assistant", "Will do.");
    cairn.endSession("s1");
    await cairn.extract();
    const e2e = "Always run the end-to-end tests with pnpm test:browser before pushing.";
    const lint = "Always run the linter with pnpm check before committing.";
    expect((await found(cairn, "e2e?", "all"))[0]).toBe(e2e);
    expect((await found(cairn, "lint?", "all"))[0]).toBe(lint);
    cairn.close();

    // The index holds memories as written and the table applies at query time: a store written
    // before needs no reindex, and the variant reaches its memories as soon as it is reopened.
    const reopened = open(home);
    expect((await found(reopened, "e2e?", "all"))[0]).toBe(e2e);
    reopened.close();
    const plain = open(home, { "recall.codeVocabulary": false });
    expect(await found(plain, "e2e?", "all")).not.toContain(e2e);
    plain.close();
  });
});
