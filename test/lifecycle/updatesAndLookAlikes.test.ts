import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Cairn } from "../../src/cairn.js";
import { runCli } from "../helpers/runCli.js";
import { type TempHome, tempHome } from "../server/tempHome.js";

/**
 * Pairs written from general knowledge of how facts about software change (tool swaps, values and
 * versions, flags turned on or off, permissions, reversed decisions, preferences), and pairs that look
 * alike but are two facts (two services, two environments, two numbered notes, a test command and a
 * lint command). Each is remembered through the library's door, older first, as a user would.
 */
const UPDATES: ReadonlyArray<readonly [older: string, newer: string]> = [
  ["We use npm", "We moved to pnpm"],
  ["We use npm", "We switched to pnpm"],
  ["We use npm", "We're using pnpm now"],
  ["We use npm", "Our package manager is now pnpm"],
  ["We use npm", "pnpm replaced npm"],
  ["Unit tests run with Jest", "Unit tests run with Vitest now"],
  ["Feature X is enabled", "Feature X is disabled"],
  ["Telemetry is on by default", "Telemetry is off by default"],
  ["The API allows anonymous access", "The API denies anonymous access"],
  ["The repository is public", "The repository is private now"],
  ["`strict` is true in tsconfig.json", "`strict` is false in tsconfig.json"],
  ["Signups are allowed", "Signups are not allowed anymore"],
  ["The API listens on port 3000", "The API listens on port 8080"],
  ["The user prefers tabs for indentation", "The user now prefers spaces for indentation"],
  ["We deploy from the main branch", "We now deploy from the release branch"],
  ["We decided to use REST for the public API", "We decided to use GraphQL for the public API instead"],
  ["Caching is turned on", "Caching is turned off"],
];

/** Where the detector is unsure: the older one is marked "may be out of date", never replaced. */
const UNSURE: ReadonlyArray<readonly [older: string, newer: string]> = [
  ["Telemetry is on by default", "We turned telemetry off by default"],
  ["Install the dependencies with npm ci", "We moved to pnpm"],
  // A change said in words of its own: it restates what the older is about, names no old value.
  ["Nightly reports are emailed to the finance team.", "Nightly reports are posted to the finance Slack channel now."],
  [
    "Support tickets are triaged by hand each morning.",
    "Support tickets are triaged by a classifier now, and only escalations are read by hand.",
  ],
  // An upgrade of the project that shares nothing else with the older version statement.
  ["The web app runs on Ruby 3.1.", "orchard was upgraded to Ruby 3.3 this sprint."],
];

const LOOK_ALIKES: ReadonlyArray<readonly [string, string]> = [
  // A move that names what it left says nothing of another tool of that kind.
  ["We pin zod to 3.2.1 in the orders service.", "The orders service now uses valibot instead of legacy-checks."],
  ["Vite bundles the docs site.", "The admin app now uses esbuild instead of make-bundle."],
  ["The orders service listens on port 3000", "The billing service listens on port 4000"],
  ["Staging uses Postgres 14", "Production uses Postgres 16"],
  ["In staging the API timeout is 30 seconds", "In production the API timeout is 10 seconds"],
  ["note 15: the value is 40", "note 18: the value is 70"],
  ["Run the tests with `npm test`", "Run the linter with `npm run lint`"],
  ["The test command is `pnpm test`", "The lint command is `pnpm lint`"],
  ["Feature X is enabled", "Feature Y is disabled"],
  ["The public API uses REST", "The private API uses REST"],
  ["Source maps are enabled in production", "Source maps are disabled in staging"],
  ["The worker uses Express", "The worker now uses Postgres"],
  ["Tests run in CI", "Tests run with vitest now"],
  ["Sessions are stored in Postgres", "We now use Redis for caching"],
  ["Service 3 uses Redis for sessions", "Service 5 no longer uses Redis"],
  // One project runs a tool at two versions in two places.
  ["The legacy cron jobs run on Ruby 2.7.", "The new checkout service runs on Ruby 3.3."],
  // An upgrade or a move of X says nothing of where X's alerts go.
  ["Alerts from orchard are sent to Slack.", "orchard was upgraded to Ruby 3.3 this sprint."],
  ["Alerts from orchard are sent to Slack.", "orchard was moved to Kubernetes last month."],
  // A change that names what it left says nothing of a memory that does not name it.
  ["We pin faraday to 2.9 in ledger-sync.", "ledger-sync now uses faraday instead of httparty."],
  // Only the service's name in common: another thing of it changed.
  ["We pin faraday to 2.9 in ledger-sync.", "ledger-sync now listens on port 4100."],
  // Lines of a conversation: "now" tells what someone does lately.
  ["Ana: I paint landscapes on weekends.", "Ana: I'm painting portraits now, on weekends too."],
];

let temp: TempHome;
let cairn: Cairn;

beforeEach(() => {
  temp = tempHome();
  cairn = new Cairn({ home: temp.home, env: temp.env });
});

afterEach(() => {
  cairn.close();
  temp.cleanup();
});

async function rememberPair(older: string, newer: string) {
  const [first] = await cairn.remember({ content: older, scope: "app", occurredAt: Date.parse("2026-03-01") });
  const [second] = await cairn.remember({ content: newer, scope: "app", occurredAt: Date.parse("2026-06-01") });
  return { older: first!, newer: second! };
}

describe("a newer memory on the same subject replaces the older at remember, with no model", () => {
  it.each(UPDATES)("%s -> %s", async (olderText, newerText) => {
    const { older, newer } = await rememberPair(olderText, newerText);
    expect(newer.superseded?.map((s) => s.id)).toEqual([older.id]);
    expect(cairn.memories.get(older.id!)!.supersededBy).toBe(newer.id);
    expect(cairn.memories.get(newer.id!)!.deletedAt).toBeNull();
  });

  it.each(UNSURE)("%s -> %s: flagged, both stay live", async (olderText, newerText) => {
    const { older, newer } = await rememberPair(olderText, newerText);
    expect(newer.superseded ?? []).toEqual([]);
    expect(newer.flagged?.map((f) => f.with)).toEqual([older.id]);
    expect(cairn.memories.get(older.id!)!.deletedAt).toBeNull();
  });
});

describe("what the unsure detectors flag, recall ranks below its newer memory", () => {
  it("puts the newer first and says the older may be out of date", async () => {
    const { older, newer } = await rememberPair(...UNSURE[2]!);
    const { results } = await cairn.recall({ query: "where do the nightly reports go?", scope: "app" });
    expect(results.map((r) => r.id).slice(0, 2)).toEqual([newer.id, older.id]);
    expect(results[1]?.doubted?.newer).toBe(newer.id);
  });

  it("an upgrade keeps a memory about the tool's files (not replaced: it names the tool, a person may look)", async () => {
    const { older, newer } = await rememberPair(
      "Ruby gems for orchard are pinned in config/gems.lock.",
      "orchard was upgraded to Ruby 3.3 this sprint.",
    );
    expect(newer.superseded ?? []).toEqual([]);
    expect(cairn.memories.get(older.id!)!.deletedAt).toBeNull();
  });
});

describe("look-alikes are two facts: neither replaced nor flagged", () => {
  it.each(LOOK_ALIKES)("%s / %s", async (olderText, newerText) => {
    const { older, newer } = await rememberPair(olderText, newerText);
    expect(newer.superseded ?? []).toEqual([]);
    expect(newer.flagged ?? []).toEqual([]);
    expect(cairn.memories.get(older.id!)!.deletedAt).toBeNull();
    expect(cairn.reviews({ scope: "app" })).toEqual([]);
  });
});

describe("through the CLI, as a user tries it", () => {
  it("remember 'we use npm' then 'we moved to pnpm' supersedes, and says so", () => {
    cairn.close();
    const first = runCli(["remember", "We use npm", "--scope", "global"], { env: temp.env });
    expect(first.status, first.stderr).toBe(0);
    const second = runCli(["remember", "We moved to pnpm", "--scope", "global"], { env: temp.env });
    expect(second.status, second.stderr).toBe(0);
    expect(second.stdout).toMatch(/superseded #\d+ "We use npm" \(tool change: npm -> pnpm\)/);
    cairn = new Cairn({ home: temp.home, env: temp.env });
  });

  it("remember --file replays a flag turned off and two environments in date order", () => {
    cairn.close();
    const file = join(temp.home, "memories.jsonl");
    const lines = [
      { content: "Telemetry is off by default", occurredAt: "2026-06-01" },
      { content: "Telemetry is on by default", occurredAt: "2026-03-01" },
      { content: "In staging the API timeout is 30 seconds", occurredAt: "2026-03-01" },
      { content: "In production the API timeout is 10 seconds", occurredAt: "2026-06-01" },
    ];
    writeFileSync(file, lines.map((line) => JSON.stringify(line)).join("\n"));
    const result = runCli(["remember", "--file", file, "--scope", "global", "--json"], { env: temp.env });
    expect(result.status, result.stderr).toBe(0);
    const outcomes = JSON.parse(result.stdout) as Array<{
      superseded?: { content: string; reason: string }[];
      supersededBy?: { reason: string };
      flagged?: unknown[];
    }>;
    // The line said first is the one replaced, whatever the order of the lines.
    expect(outcomes.map((o) => o.superseded?.map((s) => s.content) ?? [])).toEqual([
      ["Telemetry is on by default"],
      [],
      [],
      [],
    ]);
    expect(outcomes[1]?.supersededBy?.reason).toBe("opposite state: on -> off");
    expect(outcomes.flatMap((o) => o.flagged ?? [])).toEqual([]);
    expect(outcomes.slice(2).every((o) => o.supersededBy === undefined)).toBe(true);
    cairn = new Cairn({ home: temp.home, env: temp.env });
  });
});
