import { describe, expect, it } from "vitest";
import { Cairn } from "../../src/cairn.js";
import { demoConfig } from "../../src/cli/demo.js";
import type { SourceAgent } from "../../src/sources/registry.js";
import { tempDir } from "../helpers/tempDir.js";
import { type SessionToWrite, transcriptWriters, WRITTEN_CWD } from "../sources/transcriptWriters.js";

const DAY = 86_400_000;
const FIRST = new Date(Date.UTC(2026, 4, 4, 9, 0, 0));
const LATER = new Date(FIRST.getTime() + 9 * DAY);

/** What the agent said back: acknowledgements, promises, a report of what it did. None of it is memory. */
const ACKNOWLEDGEMENTS = [
  "Understood, switching to pnpm.",
  "Got it, I'll use Vitest from now on.",
  "Sure! Done.",
  "We decided to keep the endpoint on port 3000 for now.",
  "Switched the CI to GitHub Actions.",
];

/** Two sessions of one project: the first states how things are, the later one how that changed. */
function sessions(ids: [string, string]): SessionToWrite[] {
  return [
    {
      id: ids[0],
      start: FIRST,
      turns: [
        { role: "user", text: "Add a health check endpoint. The API listens on port 3000 locally." },
        { role: "assistant", text: `${ACKNOWLEDGEMENTS[3]} I added GET /health.` },
        { role: "user", text: "We use MySQL 8 for the database, and the tests run with Jest." },
        { role: "shell", command: "npm run lint", output: "error: 'x' is defined but never used", failed: true },
        { role: "shell", command: "npx jest src/invoice", output: "Tests: 4 passed, 4 total", failed: false },
        { role: "assistant", text: ACKNOWLEDGEMENTS[2]! },
      ],
    },
    {
      id: ids[1],
      start: LATER,
      turns: [
        { role: "user", text: "Heads up: the API now listens on port 8080 locally." },
        { role: "assistant", text: ACKNOWLEDGEMENTS[0]! },
        { role: "user", text: "We migrated from MySQL to Postgres 16 last week. Jest was replaced with Vitest." },
        { role: "assistant", text: ACKNOWLEDGEMENTS[1]! },
        { role: "user", text: "Should we also move the docs to Docusaurus? Can you switch the CI to GitHub Actions" },
        { role: "assistant", text: `${ACKNOWLEDGEMENTS[4]} Docusaurus is a separate decision.` },
        { role: "user", text: "Maybe we should drop Redis too, if we move to Fly.io." },
        { role: "assistant", text: "Sure, I can look into Redis later." },
      ],
    },
  ];
}

/** Session ids in the shape each agent uses. */
const IDS: Partial<Record<SourceAgent, [string, string]>> = {
  codex: ["0199c0de-0000-7000-8000-0000000fac71", "0199c0de-0000-7000-8000-0000000fac72"],
  "claude-code": ["0a1b2c3d-0000-4000-8000-0000000fac71", "0a1b2c3d-0000-4000-8000-0000000fac72"],
  pi: ["c0de0000-aaaa-4bbb-8ccc-00000000fac1", "c0de0000-aaaa-4bbb-8ccc-00000000fac2"],
  gemini: ["fac70001-2222-4333-8444-555566667777", "fac70002-2222-4333-8444-555566667777"],
  opencode: ["ses_fac7000000000000000000001", "ses_fac7000000000000000000002"],
};

describe("offline facts and changes, stated by the user in each transcript format", () => {
  it.each(Object.keys(IDS) as SourceAgent[])(
    "%s: keeps the user's facts and changes with their subject, commands that succeeded, and no acknowledgement",
    async (agent) => {
      const root = tempDir("cairn-offline-facts-src-");
      transcriptWriters[agent]!(root, sessions(IDS[agent]!));
      const cairn = new Cairn({
        home: tempDir("cairn-offline-facts-"),
        config: demoConfig,
        env: {},
        clock: () => LATER.getTime() + DAY,
        importLanes: false,
      });
      try {
        await cairn.run({ scan: { overrides: { [agent]: [root] }, only: [agent] } });
        const outputs = IDS[agent]!.map((id) => cairn.storage.stage1.get(id));
        expect(outputs.every(Boolean), "both sessions extracted").toBe(true);
        const [first, later] = outputs.map((output) =>
          output!.facts.map((fact) => ({ type: fact.type, content: fact.content })),
        );

        expect(first).toEqual([
          { type: "fact", content: "The API listens on port 3000 locally." },
          { type: "fact", content: "We use MySQL 8 for the database." },
          { type: "fact", content: "The tests run with Jest." },
          // The session ends on a tool result, with no answer after it: it stopped mid-work.
          {
            type: "fact",
            content:
              'Open work: the session stopped before the agent finished "We use MySQL 8 for the database, and the tests run with Jest." (its last step has no answer after it).',
          },
          // Only the command whose result shows that it succeeded; the lint that failed and never passed.
          { type: "procedural", content: "Command that worked: `npx jest src/invoice`" },
          {
            type: "fact",
            content:
              "`npm run lint` failed in this session and never worked after: \"error: 'x' is defined but never used\".",
          },
        ]);
        expect(later).toEqual([
          { type: "decision", content: "We migrated from MySQL to Postgres 16 last week." },
          { type: "fact", content: "The API now listens on port 8080 locally." },
          { type: "fact", content: "Jest was replaced with Vitest." },
        ]);

        // Nothing the agent said is a memory, in the extraction or in the store.
        const stored = cairn.storage.db.prepare("SELECT content FROM memories").all() as Array<{ content: string }>;
        const everything = [...first!, ...later!].map((fact) => fact.content).concat(stored.map((row) => row.content));
        for (const text of everything) {
          for (const said of ACKNOWLEDGEMENTS) expect(text).not.toContain(said);
          expect(text).not.toMatch(/Docusaurus|GitHub Actions|Redis|Fly\.io/);
        }

        // The port question finds the stored change by its subject's words.
        const recalled = await cairn.recall({ query: "what port does the API listen on locally", cwd: WRITTEN_CWD });
        expect(recalled.results.map((result) => result.content)).toContain("The API now listens on port 8080 locally.");
      } finally {
        cairn.close();
      }
    },
  );
});
