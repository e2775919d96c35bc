import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DAY_MS } from "../../src/util/clock.js";
import { type EveryDoor, openEveryDoor, runCliOn } from "../helpers/everyDoor.js";

// When a memory was said decides which of two on one subject is current: a date that does not parse
// was stored as none, and one in the future made an old statement newer than the user's latest.

let doors: EveryDoor;

beforeAll(async () => {
  doors = await openEveryDoor("cairn-occurred-at-test");
});

afterAll(() => doors.close());

const runCli = (args: string[]) => runCliOn(doors.temp.home, args);

const future = new Date(Date.now() + 400 * DAY_MS).toISOString().slice(0, 10);

describe.each([
  ["a date that does not parse", "last week", 'occurredAt must be epoch milliseconds or an ISO date; got "last week"'],
  ["a date in the future", future, `occurredAt ${future}T00:00:00.000Z is in the future`],
  [
    "epoch seconds for milliseconds",
    1_732_000_000,
    "occurredAt must be epoch milliseconds; 1732000000 is 1970-01-21 (seconds given for milliseconds?)",
  ],
])("remember with %s", (_name, occurredAt: string | number, message) => {
  const request = { content: "The staging DB is Postgres 15", occurredAt };

  it("library: a bad_input error, nothing stored", async () => {
    const { cairn, temp } = doors;
    await expect(cairn.remember({ ...request, cwd: temp.project })).rejects.toMatchObject({
      code: "bad_input",
      message: expect.stringContaining(message),
    });
    expect(cairn.memories.counts().live).toBe(0);
  });

  it("HTTP: 400 with the message", async () => {
    const { app, temp } = doors;
    const response = await app.request("/api/memory/remember", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ ...request, cwd: temp.project }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toContain(message);
  });

  it("CLI --file: one line, exit code 1", async () => {
    const file = join(doors.temp.root, "items.jsonl");
    writeFileSync(file, `${JSON.stringify(request)}\n`);
    const { code, stderr } = await runCli(["remember", "--file", file]);
    expect(code).toBe(1);
    expect(stderr.trim().split("\n")).toHaveLength(1);
    expect(stderr).toContain(`items.jsonl:1: ${message}`);
    expect(doors.cairn.memories.counts().live).toBe(0);
  });
});

describe("when a memory was said", () => {
  it("accepts a time up to a day ahead (time zones)", async () => {
    const { cairn, temp } = doors;
    const [outcome] = await cairn.remember({
      content: "The release branch is cut on Mondays",
      occurredAt: Date.now() + DAY_MS / 2,
      cwd: temp.project,
    });
    expect(outcome?.status).toBe("created");
  });

  it("refuses a pushed item in epoch seconds", () => {
    expect(() =>
      doors.cairn.appendHistory("pushed-2", { role: "user", text: "The API is on 8080", ts: 1_732_000_000 }),
    ).toThrow("appendHistory: item.ts must be epoch milliseconds; 1732000000 is 1970-01-21 (seconds given?)");
  });

  it("refuses a pushed item from the future", () => {
    const ts = Date.now() + 30 * DAY_MS;
    expect(() => doors.cairn.appendHistory("pushed-1", { role: "user", text: "The API is on 8080", ts })).toThrow(
      /^appendHistory: item\.ts .* is in the future/,
    );
  });
});
