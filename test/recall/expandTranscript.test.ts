import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Cairn } from "../../src/cairn.js";
import type { createHttpApp } from "../../src/server/createHttpApp.js";
import { TOOL_TRANSCRIPT_CHARS } from "../../src/server/formatToolText.js";
import { type EveryDoor, openEveryDoor } from "../helpers/everyDoor.js";

// Seed 004's lossless transcripts: a conversation pushed with `remember` comes back beside the memories
// it produced when recall is asked to expand, on every door.

let doors: EveryDoor;
let cairn: Cairn;
let app: ReturnType<typeof createHttpApp>;
let client: Client;

beforeEach(async () => {
  doors = await openEveryDoor("cairn-expand-transcript-test");
  ({ cairn, app, client } = doors);
  await cairn.remember({
    content: "The billing service deploys with `make ship` from the release branch",
    scope: "app",
    sessionKey: "push-billing",
    transcript: "user: how do we deploy billing?\nassistant: make ship, from the release branch",
  });
  await cairn.remember({
    content: "The search service reindexes nightly through the reindex cron job",
    scope: "app",
    sessionKey: "push-search",
    transcript: `user: when does search reindex?\n${"assistant: nightly. ".repeat(600)}`,
  });
  await cairn.remember({ content: "The billing service logs to stdout in JSON", scope: "app" });
});

afterEach(() => doors.close());

describe("recall with expand joins the pushed transcript", () => {
  it("library: each result carries its own session's transcript, and none without expand", async () => {
    const expanded = await cairn.recall({ query: "billing service", scope: "app", expand: true });
    const byContent = new Map(expanded.results.map((r) => [r.content, r]));
    expect(byContent.get("The billing service deploys with `make ship` from the release branch")?.transcript).toEqual({
      sessionKey: "push-billing",
      content: "user: how do we deploy billing?\nassistant: make ship, from the release branch",
      createdAt: expect.any(Number),
    });
    expect(byContent.get("The billing service logs to stdout in JSON")?.transcript).toBeUndefined();
    const search = await cairn.recall({ query: "search reindex", scope: "app", expand: true });
    expect(search.results[0]?.transcript?.sessionKey).toBe("push-search");
    const plain = await cairn.recall({ query: "billing service", scope: "app" });
    expect(plain.results.every((r) => r.transcript === undefined)).toBe(true);
  });

  it("HTTP returns the whole transcript", async () => {
    const response = await app.request("/api/memory/recall", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "search reindex nightly", scope: "app", expand: true }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { results: Array<{ transcript?: { content: string } }> };
    expect(body.results[0]?.transcript?.content.length).toBe(
      "user: when does search reindex?\n".length + "assistant: nightly. ".length * 600,
    );
  });

  it("MCP shows a transcript's beginning once, within what an agent accepts", async () => {
    const result = (await client.callTool({
      name: "recall",
      arguments: { query: "search reindex nightly", scope: "app", expand: true },
    })) as { isError?: boolean; content: Array<{ text: string }> };
    expect(result.isError).toBeFalsy();
    const text = result.content[0]?.text ?? "";
    expect(text).toContain(`transcript of session push-search (first ${TOOL_TRANSCRIPT_CHARS} of 12032 characters):`);
    expect(text).toContain("   | user: when does search reindex?");
    expect(text.length).toBeLessThan(TOOL_TRANSCRIPT_CHARS + 2_000);
    const billing = (await client.callTool({
      name: "recall",
      arguments: { query: "billing service", scope: "app", expand: true },
    })) as { content: Array<{ text: string }> };
    expect(billing.content[0]?.text).toContain(
      "   transcript of session push-billing:\n   | user: how do we deploy billing?\n   | assistant: make ship, from the release branch",
    );
    const plain = (await client.callTool({
      name: "recall",
      arguments: { query: "billing service", scope: "app" },
    })) as { content: Array<{ text: string }> };
    expect(plain.content[0]?.text).not.toContain("transcript of session");
  });
});
