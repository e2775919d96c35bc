import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Cairn } from "../../src/cairn.js";
import type { createHttpApp } from "../../src/server/createHttpApp.js";
import { CairnError } from "../../src/util/errors.js";
import { type EveryDoor, openEveryDoor, runCliOn } from "../helpers/everyDoor.js";
import type { TempHome } from "../server/tempHome.js";

// The same over-limit requests through every door: CLI, HTTP, MCP and the library each refuse them with
// the one message of the shared request schema (src/requests/), naming the limit and the value given.

let doors: EveryDoor;
let temp: TempHome;
let cairn: Cairn;
let app: ReturnType<typeof createHttpApp>;
let client: Client;

beforeAll(async () => {
  doors = await openEveryDoor("cairn-limits-test");
  ({ temp, cairn, app, client } = doors);
});

afterAll(() => doors.close());

const long = (n: number) =>
  "word "
    .repeat(Math.ceil(n / 5))
    .slice(0, n - 1)
    .concat("x");

interface Case {
  name: string;
  operation: "recall" | "remember";
  /** The request as the library and HTTP take it (HTTP adds cwd). */
  request: Record<string, unknown>;
  cli: string[];
  /** The MCP tool's arguments, when the tool has the field (remember's content is called text there). */
  mcp?: Record<string, unknown>;
  message: string;
  mcpMessage?: string;
}

const cases: Case[] = [
  {
    name: "recall k over recall.maxK",
    operation: "recall",
    request: { query: "builds", k: 200 },
    cli: ["recall", "builds", "--k", "200"],
    mcp: { query: "builds", k: 200 },
    message: "k must be at most 50 (recall.maxK); got 200",
  },
  {
    name: "a recall query over the query limit",
    operation: "recall",
    request: { query: long(10_001) },
    cli: ["recall", long(10_001)],
    mcp: { query: long(10_001) },
    message: "query must be at most 10000 characters (the limit for a query); got 10001",
  },
  {
    name: "remember content over the limit for one memory",
    operation: "remember",
    request: { content: long(10_001) },
    cli: ["remember", long(10_001)],
    mcp: { text: long(10_001) },
    message: "content must be at most 10000 characters (the limit for one memory); got 10001",
    mcpMessage: "text must be at most 10000 characters (the limit for one memory); got 10001",
  },
  {
    name: "a remember ref over the limit for a ref",
    operation: "remember",
    request: { content: "Builds use make", ref: long(1_001) },
    cli: ["remember", "Builds use make", "--ref", long(1_001)],
    message: "ref must be at most 1000 characters (the limit for a ref); got 1001",
  },
  {
    name: "remember with more search terms than the limit",
    operation: "remember",
    request: { content: "Builds use make", searchTerms: Array.from({ length: 13 }, (_, i) => `term${i}`) },
    cli: ["remember", "Builds use make", ...Array.from({ length: 13 }, (_, i) => ["--term", `term${i}`]).flat()],
    mcp: { text: "Builds use make", searchTerms: Array.from({ length: 13 }, (_, i) => `term${i}`) },
    message: "searchTerms must have at most 12 items (the limit for search terms); got 13",
  },
  {
    name: "a search term over the limit for a search term",
    operation: "remember",
    request: { content: "Builds use make", searchTerms: [long(41)] },
    cli: ["remember", "Builds use make", "--term", long(41)],
    mcp: { text: "Builds use make", searchTerms: [long(41)] },
    message: "searchTerms.0 must be at most 40 characters (the limit for a search term); got 41",
  },
];

const runCli = (args: string[]) => runCliOn(temp.home, args);

describe.each(cases)("$name", (c) => {
  it("CLI: exit code 1 and one line", async () => {
    expect(await runCli(c.cli)).toEqual({ code: 1, stderr: `cairn: ${c.message}\n` });
  });

  it("HTTP: 400 with the message", async () => {
    const response = await app.request(`/api/memory/${c.operation}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ ...c.request, cwd: temp.project }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: c.message });
  });

  it.runIf(c.mcp)("MCP: a tool error with the message", async () => {
    const result = (await client.callTool({ name: c.operation, arguments: { ...c.mcp, cwd: temp.project } })) as {
      isError?: boolean;
      content: Array<{ text: string }>;
    };
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toContain(c.mcpMessage ?? c.message);
  });

  it("library: throws a bad_input CairnError", async () => {
    const call =
      c.operation === "recall"
        ? cairn.recall({ ...(c.request as { query: string }), cwd: temp.project })
        : cairn.remember({ ...(c.request as { content: string }), cwd: temp.project });
    const error = await call.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(CairnError);
    expect(error).toMatchObject({ code: "bad_input", status: 400, message: c.message });
  });
});

describe("request limits", () => {
  it("store nothing when a request is refused", () => {
    expect(cairn.memories.counts().live).toBe(0);
  });

  it("take the recall ceiling from the config's recall.maxK", async () => {
    const wider = new Cairn({ home: temp.home, env: temp.env, config: { "recall.maxK": 100 } });
    try {
      await expect(wider.recall({ query: "builds", k: 80, cwd: temp.project })).resolves.toHaveProperty("results");
      await expect(wider.recall({ query: "builds", k: 101, cwd: temp.project })).rejects.toThrow(
        "k must be at most 100 (recall.maxK); got 101",
      );
    } finally {
      wider.close();
    }
  });

  it("accept a value at the limit on every door", async () => {
    await expect(cairn.recall({ query: "builds", k: 50, cwd: temp.project })).resolves.toHaveProperty("results");
    const [outcome] = await cairn.remember({ content: long(10_000), cwd: temp.project });
    expect(outcome?.status).toBe("created");
  });
});
