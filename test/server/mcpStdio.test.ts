import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliArgs, type TempHome, tempHome, writeSummary } from "./tempHome.js";

let temp: TempHome;
let client: Client;

interface TextResult {
  isError?: boolean;
  content: Array<{ type: string; text?: string }>;
}

async function call(name: string, args: Record<string, unknown>): Promise<{ isError: boolean; text: string }> {
  const result = (await client.callTool({ name, arguments: args })) as TextResult;
  return { isError: result.isError === true, text: result.content.map((part) => part.text ?? "").join("") };
}

beforeAll(async () => {
  temp = tempHome();
  writeSummary(temp.home, { cwd: temp.project }, "- Releases are cut from the main branch.");
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: cliArgs("mcp"),
    cwd: temp.project,
    env: temp.env as Record<string, string>,
    stderr: "pipe",
  });
  client = new Client({ name: "cairn-test", version: "1.0.0" });
  await client.connect(transport);
});

afterAll(async () => {
  await client?.close();
  temp.cleanup();
});

describe("cairn mcp over stdio, through a real MCP client", () => {
  it("lists the tools with their input schemas", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      "checkpoint",
      "documents",
      "edit",
      "export",
      "forget",
      "forget_document",
      "import",
      "ingest_document",
      "read",
      "recall",
      "remember",
      "resolve_review",
      "restore",
      "review",
      "status",
    ]);
    const forget = tools.find((tool) => tool.name === "forget");
    expect(forget?.inputSchema.required).toEqual(["id"]);
    const recall = tools.find((tool) => tool.name === "recall");
    expect(recall?.inputSchema.required).toEqual(["query"]);
    expect(Object.keys(recall?.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(["query", "k", "scope"]));
  });

  it("remembers for the server's project and recalls it back", async () => {
    const remembered = await call("remember", {
      text: "Database migrations live in db/migrations and run with make migrate",
    });
    expect(remembered).toEqual({ isError: false, text: expect.stringMatching(/^Remembered \(id \d+\)\.$/) });
    const again = await call("remember", {
      text: "Database migrations live in db/migrations and run with make migrate",
    });
    expect(again.text).toMatch(/^Already remembered/);
    const recalled = await call("recall", { query: "how do database migrations run", k: 3 });
    expect(recalled.isError).toBe(false);
    expect(recalled.text).toContain("> Database migrations live in db/migrations and run with make migrate");
    const elsewhere = await call("recall", { query: "database migrations", scope: "global" });
    expect(elsewhere.text).toMatch(/^No memories match/);
  });

  it("reads memory:// URLs of the server's project", async () => {
    const summary = await call("read", { url: "memory://root" });
    expect(summary).toEqual({
      isError: false,
      text: expect.stringContaining("Releases are cut from the main branch."),
    });
  });

  it("returns tool errors for bad URLs and bad arguments, and keeps serving", async () => {
    const traversal = await call("read", { url: "memory://root/../../etc/passwd" });
    expect(traversal.isError).toBe(true);
    expect(traversal.text).toMatch(/not allowed/);
    const unknown = await call("read", { url: "memory://elsewhere/x" });
    expect(unknown).toEqual({ isError: true, text: expect.stringMatching(/^memory:\/\/elsewhere\/x: expected/) });
    const empty = await call("recall", { query: "" });
    expect(empty.isError).toBe(true);
    const status = await call("status", {});
    expect(status.isError).toBe(false);
    expect(JSON.parse(status.text)).toHaveProperty("phase2");
  });
});
