import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Cairn } from "../../src/cairn.js";
import { createHttpApp } from "../../src/server/createHttpApp.js";
import { inProcessMcpClient } from "../helpers/inProcessMcp.js";
import { type TempHome, tempHome, writeSummary } from "./tempHome.js";

let temp: TempHome;
let cairn: Cairn;
let client: Client;

beforeAll(async () => {
  temp = tempHome();
  cairn = new Cairn({ home: temp.home, env: temp.env });
  const app = createHttpApp({ cairn });
  client = await inProcessMcpClient(app, "cairn-mcp-http-test");
});

afterAll(async () => {
  await client.close();
  cairn.close();
  temp.cleanup();
});

async function call(name: string, args: Record<string, unknown>) {
  const result = (await client.callTool({ name, arguments: args })) as {
    isError?: boolean;
    content: Array<{ text: string }>;
  };
  return { isError: result.isError ?? false, text: result.content[0]?.text ?? "" };
}

describe("MCP over HTTP (cairn serve): the daemon's folder is nobody's project", () => {
  it("refuses remember without cwd for the project scope, and files nothing", async () => {
    expect(await call("remember", { text: "Builds use make" })).toEqual({
      isError: true,
      text: "cwd is required when scope is project (the default)",
    });
    expect(await call("remember", { text: "Builds use make", cwd: "work/project" })).toEqual({
      isError: true,
      text: "cwd must be an absolute path",
    });
    expect(cairn.status()).toMatchObject({ items: 0 });
  });

  it("files remember under the cwd it names, and global memory needs none", async () => {
    expect(await call("remember", { text: "Builds use make", cwd: temp.project })).toMatchObject({ isError: false });
    expect(await call("remember", { text: "Answers in English", scope: "global" })).toMatchObject({ isError: false });
    const recalled = await call("recall", { query: "builds make", cwd: temp.project });
    expect(recalled.text).toContain("> Builds use make");
  });

  it("shows what a recalled memory replaced, marked as no longer true, when asked", async () => {
    const [old] = await cairn.remember({ content: "Lint runs with eslint --fix", scope: "global" });
    const [current] = await cairn.remember({ content: "Lint runs with biome check --write", scope: "global" });
    cairn.memories.supersede(old!.id!, current!.id!);
    const plain = await call("recall", { query: "lint runs", scope: "global" });
    expect(plain.text).toContain("> Lint runs with biome check --write");
    expect(plain.text).not.toContain("eslint");
    const text = (await call("recall", { query: "lint runs", scope: "global", includeSuperseded: true })).text;
    expect(text).toMatch(
      new RegExp(
        `superseded \\d{4}-\\d{2}-\\d{2} by id ${current!.id} \\(no longer true\\), id ${old!.id}:\\n   > Lint runs with eslint --fix`,
      ),
    );
  });

  it("refuses recall for the project scope and read of memory://root without cwd", async () => {
    expect(await call("recall", { query: "builds" })).toEqual({
      isError: true,
      text: "cwd is required when scope is project (the default)",
    });
    expect((await call("recall", { query: "English", scope: "global" })).text).toContain("> Answers in English");
    expect(await call("read", { url: "memory://root" })).toEqual({
      isError: true,
      text: "cwd is required for memory://root URLs",
    });
    writeSummary(temp.home, { cwd: temp.project }, "- Builds use make.");
    expect((await call("read", { url: "memory://root", cwd: temp.project })).text).toContain("Builds use make.");
  });
});
