import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Cairn } from "../../src/cairn.js";
import { projectIdentity } from "../../src/project/projectKey.js";
import { createHttpApp } from "../../src/server/createHttpApp.js";
import { createMcpServer } from "../../src/server/createMcpServer.js";
import { CLAUDE_CODE_TOOL_TEXT, CODEX_TOOL_TEXT, type ToolTextBudget } from "../../src/server/formatToolText.js";
import { withoutControls } from "../../src/text/controlCharacters.js";
import { projectWorkspace } from "../../src/workspace/workspacePaths.js";
import { type TempHome, tempHome } from "./tempHome.js";

// Claude Code keeps an MCP result inline up to 50,000 characters and refuses more than 25,000 tokens
// (https://code.claude.com/docs/en/mcp): every tool result must fit, and say how to get the rest.

let temp: TempHome;
let cairn: Cairn;
const clients = new Map<string, Client>();

beforeAll(async () => {
  temp = tempHome();
  cairn = new Cairn({ home: temp.home, env: temp.env });
  // A server per client, connected as `cairn mcp` is over stdio: it knows the name the client gave.
  for (const name of ["claude-code", "codex-mcp-client", "some-other-agent"]) {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createMcpServer(cairn, { cwd: temp.project }).connect(serverSide);
    const client = new Client({ name, version: "1.0.0" });
    await client.connect(clientSide);
    clients.set(name, client);
  }
});

afterAll(async () => {
  for (const client of clients.values()) await client.close();
  cairn.close();
  temp.cleanup();
});

async function call(name: string, args: Record<string, unknown>, as = "claude-code") {
  const client = clients.get(as)!;
  const result = (await client.callTool({ name, arguments: args })) as {
    isError?: boolean;
    content: Array<{ text: string }>;
  };
  return { isError: result.isError ?? false, text: result.content[0]?.text ?? "" };
}

/** A MEMORY.md of `sections` task lines, about 330 characters each. */
function writeMemoryFile(sections: number): string {
  const lines = ["# Memory: project", ""];
  for (let i = 0; i < sections; i++)
    lines.push(
      `- 2026-11-${String((i % 28) + 1).padStart(2, "0")} Task ${i}: the user asked to fix the flaky checkout test; ` +
        `the agent ran pnpm test:e2e, found a race in the cart service, and added a retry around the payment mock. ` +
        `Files edited: src/cart/service.ts, test/e2e/checkout.spec.ts. [rollout_summaries/task-${i}.md]`,
    );
  return writeMemoryText(`${lines.join("\n")}\n`);
}

function writeMemoryText(text: string): string {
  const dir = projectWorkspace(join(temp.home, "memories"), projectIdentity(temp.project).key).dir;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "MEMORY.md"), text);
  return text;
}

/**
 * Reads memory://root/MEMORY.md part by part, following each part's note, and joins what the parts show.
 * Every part must fit the client's budget and name the next offset within the file.
 */
async function readInParts(as: string, budget: ToolTextBudget, length: number): Promise<string> {
  let offset = 0;
  let joined = "";
  for (let part = 0; part < 500; part++) {
    const { isError, text } = await call("read", { url: "memory://root/MEMORY.md", offset }, as);
    expect(isError).toBe(false);
    fits(text, budget);
    const note = /\n\n\[part: characters (\d+) to (\d+) of (\d+); call read with offset (\d+) for the rest\]$/.exec(
      text,
    );
    if (!note) return joined + text;
    expect([Number(note[1]), Number(note[3])]).toEqual([offset, length]);
    expect(Number(note[4])).toBe(Number(note[2]));
    expect(Number(note[4])).toBeGreaterThan(offset);
    joined += text.slice(0, note.index);
    offset = Number(note[4]);
  }
  throw new Error("the file did not end within 500 parts");
}

const BUDGETS: Array<[string, ToolTextBudget]> = [
  ["claude-code", CLAUDE_CODE_TOOL_TEXT],
  ["codex-mcp-client", CODEX_TOOL_TEXT],
  ["some-other-agent", CODEX_TOOL_TEXT],
];

function fits(text: string, budget: ToolTextBudget) {
  expect(Buffer.byteLength(text)).toBeLessThanOrEqual(budget.bytes);
  expect(text.split("\n").length).toBeLessThanOrEqual(budget.lines);
}

describe("MCP results an agent takes in one piece", () => {
  it.each(BUDGETS)(
    "reads a long MEMORY.md as %s in parts that each fit and join into the whole file",
    async (as, budget) => {
      const whole = writeMemoryFile(400);
      expect(Buffer.byteLength(whole)).toBeGreaterThan(2 * CLAUDE_CODE_TOOL_TEXT.bytes);
      expect(await readInParts(as, budget, whole.length)).toBe(whole);
    },
  );

  // A model's MEMORY.md with colour codes (ESC is 1 byte in the file, 3 as U+FFFD) and Windows line
  // ends: the part is cut after the controls are replaced, so its paging note survives, and the offset
  // it names counts the file's characters.
  it.each(BUDGETS)("reads a MEMORY.md with colour codes on 1,500 lines to its end as %s", async (as, budget) => {
    const lines = ["# Memory: project", ""];
    for (let i = 0; i < 1_500; i++)
      lines.push(
        `- check ${i}: \u001b[32mPASS\u001b[0m npm test (\u001b[1m${i % 7} suites\u001b[0m)${i % 5 ? "" : "\r"}`,
      );
    const whole = writeMemoryText(`${lines.join("\n")}\n`);
    const parts = await readInParts(as, budget, whole.length);
    expect(parts).toBe(withoutControls(whole));
    expect(parts).toContain("- check 1499: \uFFFD[32mPASS");
  });
  it("refuses an offset past the end with one line", async () => {
    const whole = writeMemoryFile(3);
    expect(await call("read", { url: "memory://root/MEMORY.md", offset: whole.length + 1 })).toEqual({
      isError: true,
      text: `offset ${whole.length + 1} is past the end of memory://root/MEMORY.md (${whole.length} characters)`,
    });
  });

  it.each(BUDGETS)("cuts recall's results for %s to fit, and says how to see the rest", async (as, budget) => {
    if (!(await cairn.recall({ query: "release checklist", scope: "global" })).results.length) {
      const body = "The release checklist: ".concat("bump the version, tag, publish the notes; ".repeat(200));
      await cairn.remember(
        Array.from({ length: 12 }, (_, i) => ({ content: `Step ${i}. ${body}`, scope: "global", ref: `r${i}` })),
      );
    }
    const { isError, text } = await call("recall", { query: "release checklist", scope: "global", k: 12 }, as);
    expect(isError).toBe(false);
    fits(text, budget);
    expect(text).toMatch(
      /\n\n\[cut: \d+ of \d+ characters shown; the results after the cut are not shown: ask again with a smaller k/,
    );
    expect(text).toContain("1. [score");
  });

  it("leaves a result that fits as it is", async () => {
    const { text } = await call("recall", { query: "release checklist", scope: "global", k: 1 }, "codex-mcp-client");
    expect(text).not.toContain("[cut:");
  });
});

describe("reading a file in parts on every door", () => {
  it("takes the same offset through the library and the HTTP API", async () => {
    const whole = writeMemoryFile(3);
    expect(cairn.readMemory("memory://root/MEMORY.md", temp.project, 10)).toEqual({
      url: "memory://root/MEMORY.md",
      content: whole.slice(10),
      offset: 10,
      length: whole.length,
    });
    const app = createHttpApp({ cairn });
    const response = await app.request("/api/read", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ url: "memory://root/MEMORY.md", cwd: temp.project, offset: 10 }),
    });
    expect(await response.json()).toMatchObject({ content: whole.slice(10), offset: 10, length: whole.length });
    const bad = await app.request("/api/read", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ url: "memory://root/MEMORY.md", cwd: temp.project, offset: -1 }),
    });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toContain("offset must be at least 0");
  });
});
