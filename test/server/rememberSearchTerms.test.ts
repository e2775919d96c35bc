import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { main } from "../../src/cli/program.js";
import { type EveryDoor, openEveryDoor } from "../helpers/everyDoor.js";

// Search terms given with remember: words a later question may use that the memory's text does not.
// Every door takes them, and recall then finds the memory by a term alone.

const SCOPE = "terms-doors";
let doors: EveryDoor;

beforeAll(async () => {
  doors = await openEveryDoor("cairn-terms-test");
});

afterAll(() => doors.close());

async function cli(args: string[]): Promise<number> {
  const out = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
  try {
    return await main(["node", "cairn", "--home", doors.temp.home, ...args]);
  } finally {
    out.mockRestore();
  }
}

async function foundBy(query: string): Promise<string[]> {
  const { results } = await doors.cairn.recall({ query, scope: SCOPE, k: 5 });
  return results.map((result) => result.content);
}

const cases: Array<{
  door: string;
  content: string;
  term: string;
  store: (content: string, term: string) => unknown;
}> = [
  {
    door: "library",
    content: "Builds are cached in the shared bucket.",
    term: "sccache",
    store: (content, term) => doors.cairn.remember({ content, scope: SCOPE, searchTerms: [term] }),
  },
  {
    door: "CLI",
    content: "Releases are cut from the train branch every second Tuesday.",
    term: "cadence",
    store: (content, term) => cli(["remember", content, "--scope", SCOPE, "--term", term, "--term", "schedule"]),
  },
  {
    door: "CLI --file",
    content: "Screenshots for the docs come from the storybook build.",
    term: "imagery",
    store: (content, term) => {
      const file = join(doors.temp.root, "items.jsonl");
      writeFileSync(file, `${JSON.stringify({ content, scope: SCOPE, searchTerms: [term] })}\n`);
      return cli(["remember", "--file", file]);
    },
  },
  {
    door: "HTTP",
    content: "Feature flags are read once at boot from the flags service.",
    term: "toggles",
    store: (content, term) =>
      doors.app.request("/api/memory/remember", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ content, scope: SCOPE, searchTerms: [term] }),
      }),
  },
  {
    door: "MCP",
    content: "Invoices are rendered to PDF by the headless browser worker.",
    term: "puppeteer",
    store: (content, term) =>
      doors.client.callTool({ name: "remember", arguments: { text: content, scope: SCOPE, searchTerms: [term] } }),
  },
];

describe("search terms given with remember", () => {
  it.each(cases)("are taken by the $door door: recall finds the memory by a term its text lacks", async (d) => {
    expect(d.content.toLowerCase()).not.toContain(d.term);
    expect(await foundBy(d.term)).not.toContain(d.content);
    await d.store(d.content, d.term);
    expect((await foundBy(d.term))[0]).toBe(d.content);
  });

  it("of a duplicate are added to the memory it repeats, so nothing a caller gave is lost", async () => {
    const content = "Nightly backups are copied to the cold-storage account.";
    const [first] = await doors.cairn.remember({ content, scope: SCOPE, searchTerms: ["archive"] });
    const [again] = await doors.cairn.remember({ content, scope: SCOPE, searchTerms: ["glacier", "archive"] });
    expect(again).toMatchObject({ status: "deduped", id: first?.id });
    expect((await foundBy("glacier"))[0]).toBe(content);
    expect((await foundBy("archive"))[0]).toBe(content);
    const stored = doors.cairn.storage.db
      .prepare("SELECT search_terms AS terms FROM memories WHERE id = ?")
      .get(first?.id);
    expect(stored).toEqual({ terms: "archive glacier" });
  });

  it("are redacted like the text: a term that held a secret is not kept", async () => {
    const secret = `ghp_${"a1B2".repeat(9)}`; // a GitHub token, 40 characters
    const [outcome] = await doors.cairn.remember({
      content: "The nightly export job posts to the data team's channel.",
      scope: SCOPE,
      searchTerms: [secret, "slack"],
    });
    const stored = doors.cairn.storage.db
      .prepare("SELECT search_terms AS terms FROM memories WHERE id = ?")
      .get(outcome?.id) as { terms: string | null };
    expect(stored.terms).toBe("slack");
  });
});
