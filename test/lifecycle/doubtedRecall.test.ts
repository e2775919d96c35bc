import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Cairn } from "../../src/cairn.js";
import { createHttpApp } from "../../src/server/createHttpApp.js";
import { inProcessMcpClient } from "../helpers/inProcessMcp.js";
import { runCli } from "../helpers/runCli.js";
import { type TempHome, tempHome } from "../server/tempHome.js";

// A pair the supersession detectors were not sure of stays live on both sides until a person decides.
// Meanwhile every recall door says which result may be out of date and which memory is newer.

describe("recall of a memory an open review flag doubts", () => {
  let temp: TempHome;
  let cairn: Cairn;
  let client: Client;
  let older: number;
  let newer: number;
  let flag: number;
  const query = { query: "which database does it run on", scope: "global" };

  beforeAll(async () => {
    temp = tempHome();
    cairn = new Cairn({ home: temp.home, env: temp.env });
    const [a] = await cairn.remember({
      content: "The database runs on MySQL 8 in docker-compose",
      scope: "global",
      occurredAt: "2026-05-01",
    });
    const [b] = await cairn.remember({
      content: "The database is now Postgres 16",
      scope: "global",
      occurredAt: "2026-06-10",
    });
    older = a!.id!;
    newer = b!.id!;
    flag = b!.flagged![0]!.flag;
    client = await inProcessMcpClient(createHttpApp({ cairn }), "cairn-doubt-test");
  });
  afterAll(async () => {
    await client.close();
    cairn.close();
    temp.cleanup();
  });

  it("marks it in the library's and HTTP's results, and not the newer one", async () => {
    const { results } = await cairn.recall(query);
    // The same subject by the detectors' reading: the newer ranks first while the flag is open.
    const ranked = results.map((r) => r.id);
    expect(ranked.indexOf(newer)).toBeGreaterThanOrEqual(0);
    expect(ranked.indexOf(newer)).toBeLessThan(ranked.indexOf(older));
    expect(results.find((r) => r.id === older)?.doubted).toEqual({ newer, flag });
    expect(results.find((r) => r.id === newer)?.doubted).toBeUndefined();
    const http = await createHttpApp({ cairn }).request("/api/memory/recall", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(query),
    });
    const body = (await http.json()) as { results: Array<{ id: number; doubted?: unknown }> };
    expect(body.results.find((r) => r.id === older)?.doubted).toEqual({ newer, flag });
  });

  it("says so in the CLI's text and the MCP tool's text", async () => {
    const cli = runCli(["recall", query.query, "--scope", "global"], { env: temp.env });
    expect(cli.status, cli.stderr).toBe(0);
    expect(cli.stdout).toContain(`may be out of date: #${newer} is newer (review flag #${flag}; cairn memory review)`);
    const tool = (await client.callTool({ name: "recall", arguments: query })) as { content: Array<{ text: string }> };
    expect(tool.content[0]?.text).toContain(`may be out of date: id ${newer} is newer and may replace it`);
  });

  it("doubts the statement said first when a flag names the newer one first (a fact extracted late)", async () => {
    const [late] = await cairn.remember({
      content: "Staging deploys wait for a manual approval in the deploy channel",
      scope: "global",
      occurredAt: "2026-07-01",
    });
    const [early] = await cairn.remember({
      content: "Staging deploys go out without any approval step",
      scope: "global",
      occurredAt: "2026-03-01",
    });
    const reversed = cairn.storage.reviews.add({
      memoryId: late!.id!,
      relatedId: early!.id!,
      reason: "contradiction",
      detector: "semantic",
      now: Date.now(),
    });
    const doubts = cairn.storage.reviews.doubtsAbout([late!.id!, early!.id!]);
    expect(doubts.get(early!.id!)).toEqual({ newer: late!.id, flag: reversed });
    expect(doubts.has(late!.id!)).toBe(false);
    await cairn.resolveReview({ flag: reversed, action: "keep" });
  });

  it("drops the mark once a person keeps the memory", async () => {
    await cairn.resolveReview({ flag, action: "keep" });
    const { results } = await cairn.recall(query);
    expect(results.find((r) => r.id === older)).toBeDefined();
    expect(results.some((r) => r.doubted)).toBe(false);
  });
});
