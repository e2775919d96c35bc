import { describe, expect, it } from "vitest";
import { validateConfig } from "../../src/config/load.js";
import { isStatedDecision } from "../../src/pipeline/phase1/offline/statedDecision.js";
import { statedFact, statedFacts } from "../../src/pipeline/phase1/offline/statedFacts.js";
import { runPhase1 } from "../../src/pipeline/phase1/runPhase1.js";
import type { SessionItem } from "../../src/sources/types.js";
import { DAY_MS } from "../../src/util/clock.js";
import { addSession, memoryStorage } from "../helpers/store.js";

describe("a user's statement of project fact", () => {
  it.each([
    // State: a subject, a verb of setup, a named value.
    ["The API listens on port 3000 locally.", "The API listens on port 3000 locally.", false],
    ["we use MySQL 8 for the database", "We use MySQL 8 for the database.", false],
    ["We use npm in this repo.", "We use npm in this repo.", false],
    ["our CI runs on GitHub Actions", "Our CI runs on GitHub Actions.", false],
    ["Tests run with Jest.", "Tests run with Jest.", false],
    ["`DATABASE_URL` points to the local Postgres.", "`DATABASE_URL` points to the local Postgres.", false],
    ["The staging server is hosted on Fly.io.", "The staging server is hosted on Fly.io.", false],
    // Change: moved, migrated, switched, dropped, replaced, no longer, now.
    ["ok, the API now listens on 8080", "The API now listens on 8080.", true],
    ["The API port is now 8080.", "The API port is now 8080.", true],
    ["We moved to pnpm.", "We moved to pnpm.", true],
    ["we dropped Jest", "We dropped Jest.", true],
    ["Jest was replaced with Vitest.", "Jest was replaced with Vitest.", true],
    ["We no longer use npm.", "We no longer use npm.", true],
    ["We don't use Redux anymore.", "We don't use Redux anymore.", true],
    ["We migrated from MySQL to Postgres 16.", "We migrated from MySQL to Postgres 16.", true],
    ["Heads up: the default branch was renamed to main.", "The default branch was renamed to main.", true],
    ["FYI: the database is Postgres 16 now.", "The database is Postgres 16 now.", true],
    ["Now the API listens on 8080.", "Now the API listens on 8080.", true],
    ["We're now on Node 22.", "We're now on Node 22.", true],
    ["we’re using Biome for linting", "We’re using Biome for linting.", false],
    // An interjection opens the sentence; a "No" without punctuation is the statement's own negation.
    ["No worries, we use pnpm in this repo.", "We use pnpm in this repo.", false],
    ["Oh no, the API now listens on 8080.", "The API now listens on 8080.", true],
    // The idioms polarity reads as saying nothing are filler here too (one list, text/negation.ts).
    ["No thanks, we deploy from the release branch.", "We deploy from the release branch.", false],
    ["No way, the staging DB is Postgres 16 now.", "The staging DB is Postgres 16 now.", true],
  ])("%s", (sentence, text, change) => {
    expect(statedFact(sentence)).toEqual({ text, change });
  });

  it.each([
    // Questions, with or without the mark.
    "should we move to pnpm?",
    "what port does the API listen on locally",
    "is the API still on port 3000",
    // Hypotheticals, plans, hedges.
    "maybe we should move to pnpm",
    "if we switch to Vitest the tests will be faster",
    "we need to migrate to Postgres",
    "I think the API listens on 3000.",
    "We're going to move to pnpm next sprint.",
    // Requests to the agent, and instructions for the task at hand.
    "can you switch to pnpm",
    "Please move the API to port 8080.",
    "let's switch to pnpm",
    "Now run the e2e tests with pnpm test:e2e.",
    // No subject, or nothing named.
    "it now listens on 8080",
    "This is now set to 8080.",
    "the dim is too dim",
    "Code is merged to main locally, not pushed.",
    "This is an ephemeral branch (no upstream).",
    "then moved to the next file",
  ])("not a fact: %s", (sentence) => {
    expect(statedFact(sentence)).toBeNull();
  });
});

describe("a sentence with several facts", () => {
  it("never drops a statement's own 'No' as if it were an answer", () => {
    // It was taken for an opening "No," and the fact stored was the opposite: "Tests run on GitHub Actions."
    expect(statedFact("No tests run on GitHub Actions.")?.text).not.toBe("Tests run on GitHub Actions.");
  });

  it("keeps each clause that states a fact as its own fact, so each can be replaced alone", () => {
    expect(statedFacts("We use MySQL 8 for the database, and the tests run with Jest.").map((f) => f.text)).toEqual([
      "We use MySQL 8 for the database.",
      "The tests run with Jest.",
    ]);
    // A clause without a subject of its own stays with the sentence.
    expect(statedFacts("We use MySQL 8 for the database, and it runs in Docker.").map((f) => f.text)).toEqual([
      "We use MySQL 8 for the database, and it runs in Docker.",
    ]);
    expect(statedFacts("Should we use MySQL 8, and run the tests with Jest?")).toEqual([]);
  });
});

describe("a user's statement of a decision", () => {
  it.each([
    "We decided to use Vitest for unit tests.",
    "Switched to pnpm last week.",
    "We went with Postgres 16 for the new service.",
  ])("%s", (sentence) => {
    expect(isStatedDecision(sentence)).toBe(true);
  });

  it.each([
    "should we switch to pnpm?",
    "can you switch to pnpm",
    "switch to pnpm",
    "migrate to Postgres 16",
    "let's migrate to Postgres",
    "we need to switch to Vitest",
    "If we went with Postgres, the migration would take a week.",
  ])("not a decision: %s", (sentence) => {
    expect(isStatedDecision(sentence)).toBe(false);
  });
});

describe("what the offline extractor keeps from a session", () => {
  type Item = Partial<SessionItem> & Pick<SessionItem, "role" | "text">;

  async function extracted(items: Item[]) {
    const now = 100 * DAY_MS;
    const clock = () => now;
    const storage = memoryStorage(clock);
    addSession(storage, clock, { id: "s", updatedAt: now - DAY_MS, items });
    await runPhase1({ storage, config: validateConfig({}), clock, llm: null });
    const output = storage.stage1.get("s")!;
    storage.close();
    return output;
  }

  it("keeps the user's facts, decisions and rules and nothing the assistant said", async () => {
    const output = await extracted([
      { role: "user", text: "The API listens on port 3000 locally. Can you add a health check?" },
      { role: "assistant", text: "Understood, switching to pnpm. We decided to use Fastify for the server." },
      { role: "user", text: "We switched from npm to pnpm. Use pnpm from now on." },
      { role: "assistant", text: "Got it, I'll use pnpm from now on. The server now listens on port 3000." },
      { role: "user", text: "Thanks" },
      { role: "assistant", text: "Sure! Done." },
    ]);
    expect(output.facts.map((fact) => [fact.type, fact.content])).toEqual([
      ["preference", "Use pnpm from now on."],
      ["decision", "We switched from npm to pnpm."],
      ["fact", "The API listens on port 3000 locally."],
    ]);
    const sections = (title: string) =>
      new RegExp(`## ${title}\\n([\\s\\S]*?)(?:\\n\\n|$)`).exec(output.rawMemory)?.[1];
    expect(sections("Preferences")).toBe("- Use pnpm from now on.");
    expect(sections("Decisions")).toBe("- We switched from npm to pnpm.");
    expect(sections("Project facts")).toBe("- The API listens on port 3000 locally.");
  });

  it("keeps a session's latest statements past the cap, so a late change is not lost to earlier facts", async () => {
    const names = "billing auth search mailer export import audit report upload payment invoice catalog ledger";
    const services = names.split(" ").map((name, i) => `The ${name} service listens on port ${4001 + i}.`);
    const output = await extracted([
      { role: "user", text: services.join(" ") },
      { role: "assistant", text: "Noted." },
      { role: "user", text: "The gateway now listens on port 8080." },
    ]);
    const facts = output.facts.filter((fact) => fact.type === "fact").map((fact) => fact.content);
    expect(facts).toHaveLength(12);
    expect(facts).toContain("The gateway now listens on port 8080.");
    expect(facts).not.toContain("The billing service listens on port 4001.");
  });

  it("records a command as one that worked only when its result shows it succeeded", async () => {
    const output = await extracted([
      { role: "user", text: "Run the invoice tests." },
      { role: "tool_call", tool: "shell", callId: "c1", text: '{"command":"npx jest src/invoice"}' },
      { role: "tool_result", tool: "shell", callId: "c1", text: "FAIL src/invoice.test.ts", isError: true },
      { role: "tool_call", tool: "shell", callId: "c2", text: '{"command":"npx vitest run src/invoice"}' },
      { role: "tool_result", tool: "shell", callId: "c2", text: "Test Files  1 passed (1)" },
      { role: "assistant", text: "The invoice tests pass with Vitest." },
    ]);
    const procedures = output.facts.filter((fact) => fact.type === "procedural").map((fact) => fact.content);
    expect(procedures).toEqual(["Command that worked: `npx vitest run src/invoice`"]);
  });

  it("never offers a release, publish or deploy command as one to repeat", async () => {
    const ran = (id: string, command: string) => [
      { role: "tool_call" as const, tool: "bash", callId: id, text: JSON.stringify({ command }) },
      { role: "tool_result" as const, tool: "bash", callId: id, text: "done" },
    ];
    const output = await extracted([
      { role: "user", text: "Cut the minor release." },
      ...ran("c1", "npm run build"),
      ...ran("c2", "npm run version:minor"),
      ...ran("c3", "npm publish --access public"),
      ...ran("c4", "make deploy ENV=staging"),
      ...ran("c5", "npx semantic-release"),
    ]);
    const procedures = output.facts.filter((fact) => fact.type === "procedural").map((fact) => fact.content);
    expect(procedures).toEqual(["Command that worked: `npm run build`"]);
  });
});
