import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { Cairn } from "../../src/cairn.js";
import { createHttpApp } from "../../src/server/createHttpApp.js";
import { createMcpServer } from "../../src/server/createMcpServer.js";
import { completion, schemaName, userPrompt } from "../chaos/support/fakeProvider.js";
import { type LoopbackServer, startLoopbackServer } from "../helpers/loopbackServer.js";
import { cliArgs } from "../server/tempHome.js";

/**
 * Every door into the store, one corpus of secrets and one `<private>` block through each: the CLI,
 * the library, HTTP, MCP, the push API, every transcript format (user text, tool input, tool output,
 * file views) and every kind of model answer. Afterwards no file under CAIRN_HOME holds a raw secret
 * or the private text, and recall hands none out. Each door also carries a harmless canary that must
 * arrive, so a door that silently dropped its text cannot pass for a guarded one.
 */

interface Secret {
  name: string;
  /** The secret in its context, as a user would paste it. */
  text: string;
  /** Values that must never be stored (checked case-insensitively, with their longest alphanumeric run). */
  raw: string[];
}

// Real formats, synthetic values (none of these is live).
const SECRETS: Secret[] = [
  {
    name: "github token",
    text: "use token ghp_R7kW2pQ9xZ4mN8vB3cL6tY1hJ5gF0dS2aE7u for the API",
    raw: ["ghp_R7kW2pQ9xZ4mN8vB3cL6tY1hJ5gF0dS2aE7u"],
  },
  { name: "aws key id", text: "AWS_ACCESS_KEY_ID=AKIAZ7QW3ER5TY9UI2OP", raw: ["AKIAZ7QW3ER5TY9UI2OP"] },
  {
    name: "aws secret key",
    text: "aws_secret_access_key = Jx8Vq2Lm4Nz6Rt0Wy3Bc5Df7Gh9Kp1Ms4Qu6Xa8Z",
    raw: ["Jx8Vq2Lm4Nz6Rt0Wy3Bc5Df7Gh9Kp1Ms4Qu6Xa8Z"],
  },
  { name: "password assignment", text: "password=Tr0ub4dor-and-3-horses", raw: ["Tr0ub4dor-and-3-horses"] },
  {
    name: "pem private key",
    text: [
      "-----BEGIN RSA PRIVATE KEY-----",
      "MIIEowIBAAKCAQEAq7Jx9ZpQ2mLwVb5NcR8tYkHfUe3sDg6AoPi1TzXy4WnKvMjE",
      "Wd0Pq3Kz8Yf2Xm6Ln1Tb4Hs7Rv9Gc5Ja0Ue3Oi6Fy8Ek2Nw4Dh7Ss1Vg9Bl3Mx==",
      "-----END RSA PRIVATE KEY-----",
    ].join("\n"),
    raw: ["MIIEowIBAAKCAQEAq7Jx9ZpQ2mLwVb5NcR8tYkHfUe3sDg6AoPi1TzXy4WnKvMjE"],
  },
  {
    name: "slack token",
    text: "slack bot token xoxb-2231456789012-9876543210987-QwErTyUiOpAsDfGhJkLzXcVb",
    raw: ["xoxb-2231456789012-9876543210987-QwErTyUiOpAsDfGhJkLzXcVb"],
  },
  {
    name: "stripe key",
    text: "stripe key sk_live_51HxQwErTyUiOpAsDfGhJkLz0123456789abcdef",
    raw: ["sk_live_51HxQwErTyUiOpAsDfGhJkLz0123456789abcdef"],
  },
  {
    name: "url with password",
    text: "connect to postgres://admin:Vu7nQ2zLx9pR4wKt@db.internal.example:5432/app",
    raw: ["Vu7nQ2zLx9pR4wKt"],
  },
  {
    name: "git remote with token",
    text: "git remote add origin https://x-access-token:ghs_Z9yX8wV7uT6sR5qP4oN3mL2kJ1iH0gF9eD8c@github.com/acme/app.git",
    raw: ["ghs_Z9yX8wV7uT6sR5qP4oN3mL2kJ1iH0gF9eD8c"],
  },
];

// enabled after the b-rules merge: these need the redactor rules helper B adds (src/redact/rules/**).
const B_RULES_ENABLED = false;
const AFTER_B_RULES: Secret[] = [
  {
    name: "claude code Read view of a PEM key (line-numbered)",
    text: [
      "     7→# deploy key",
      "     8→-----BEGIN RSA PRIVATE KEY-----",
      "     9→MIIEpAIBAAKCAQEA3nQ8wZ5xL2kVt7RbP9sJmC4yH6gD1fU0aXeT8oNqWvKzLc2B",
      "    10→-----END RSA PRIVATE KEY-----",
    ].join("\n"),
    raw: ["MIIEpAIBAAKCAQEA3nQ8wZ5xL2kVt7RbP9sJmC4yH6gD1fU0aXeT8oNqWvKzLc2B"],
  },
  {
    name: "gcp private_key_id",
    text: '"private_key_id": "8c1f3a9d7e2b4c6f0a1d3e5f7b9c2d4e6f8a0b1c"',
    raw: ["8c1f3a9d7e2b4c6f0a1d3e5f7b9c2d4e6f8a0b1c"],
  },
  {
    name: "zero-width character inside a token",
    text: "token ghp_Q3wE5rT7yU9iO1pA\u200bS3dF5gH7jK9lZ1xC3vB5nM7q",
    raw: ["S3dF5gH7jK9lZ1xC3vB5nM7q"],
  },
  { name: "htpasswd hash", text: "admin:$apr1$Xy3kL9pQ$Vb7nM2zR4wKt8sJ1hG6fD0", raw: ["Vb7nM2zR4wKt8sJ1hG6fD0"] },
  { name: "mysql -p", text: "mysql -u root -pHunter2Hunter2xq appdb", raw: ["Hunter2Hunter2xq"] },
];

const CORPUS = B_RULES_ENABLED ? [...SECRETS, ...AFTER_B_RULES] : SECRETS;
const PRIVATE_TEXT = "my launch code is PURPLE-OCTOPUS-4242";
const PRIVATE_BLOCK = `<Private>${PRIVATE_TEXT}</PRIVATE>`;

/** A text for one door: its canary, every secret of the corpus, and a private block. */
function payload(canary: string): string {
  return [canary, ...CORPUS.map((secret) => secret.text), `remember this ${PRIVATE_BLOCK} thanks`].join("\n");
}

const canaries: string[] = [];
function canary(name: string): string {
  const value = `canary-${name}-${canaries.length}`;
  canaries.push(value);
  return value;
}

function door(name: string): string {
  return payload(canary(name));
}

/**
 * The corpus as Claude Code's Read tool shows a file: every line numbered. The PEM block is left out:
 * a numbered key block needs the rules of AFTER_B_RULES, which carries its own numbered PEM.
 */
function fileView(name: string): string {
  const entries = CORPUS.filter((secret) => secret.name !== "pem private key").map((secret) => secret.text);
  const lines = [canary(name), ...entries, `remember this ${PRIVATE_BLOCK} thanks`].join("\n").split("\n");
  return lines.map((line, index) => `${String(index + 1).padStart(6)}→${line}`).join("\n");
}

const DAY = 86_400_000;
const AT = Date.now() - 5 * DAY;
const iso = (offset: number) => new Date(AT + offset * 1000).toISOString();
const jsonl = (lines: unknown[]) => `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`;

function write(path: string, text: string): void {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
}

function writeClaudeCode(root: string, cwd: string): void {
  const id = "5a0b1c2d-3e4f-4a51-8b62-7c83d94ea0aa";
  const base = { isSidechain: false, userType: "external", cwd, sessionId: id, version: "2.1.39", gitBranch: "main" };
  const uuid = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, "0")}`;
  const view = fileView("claude-file-view");
  write(
    join(root, "projects", cwd.replace(/[^a-zA-Z0-9]/g, "-"), `${id}.jsonl`),
    jsonl([
      {
        ...base,
        parentUuid: null,
        type: "user",
        message: { role: "user", content: door("claude-user") },
        uuid: uuid(1),
        timestamp: iso(1),
      },
      {
        ...base,
        parentUuid: uuid(1),
        type: "assistant",
        message: {
          role: "assistant",
          model: "claude-opus-4-6",
          id: "msg_1",
          type: "message",
          content: [
            { type: "text", text: door("claude-assistant") },
            { type: "tool_use", id: "toolu_1", name: "Bash", input: { command: door("claude-tool-input") } },
          ],
        },
        uuid: uuid(2),
        timestamp: iso(2),
      },
      {
        ...base,
        parentUuid: uuid(2),
        type: "user",
        message: {
          role: "user",
          content: [{ type: "tool_result", tool_use_id: "toolu_1", content: door("claude-tool-output") }],
        },
        uuid: uuid(3),
        timestamp: iso(3),
      },
      {
        ...base,
        parentUuid: uuid(3),
        type: "assistant",
        message: {
          role: "assistant",
          model: "claude-opus-4-6",
          id: "msg_2",
          type: "message",
          content: [{ type: "tool_use", id: "toolu_2", name: "Read", input: { file_path: `${cwd}/.env` } }],
        },
        uuid: uuid(4),
        timestamp: iso(4),
      },
      {
        ...base,
        parentUuid: uuid(4),
        type: "user",
        message: { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_2", content: view }] },
        uuid: uuid(5),
        timestamp: iso(5),
      },
    ]),
  );
}

function writeCodex(root: string, cwd: string): void {
  const id = "0199c0de-aaaa-7bbb-8ccc-dddd00001111";
  const date = new Date(AT);
  const day = [date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate()].map((n) => String(n).padStart(2, "0"));
  const remote = "https://x-access-token:ghs_Z9yX8wV7uT6sR5qP4oN3mL2kJ1iH0gF9eD8c@github.com/acme/app.git";
  write(
    join(root, "sessions", ...day, `rollout-${iso(0).slice(0, 19).replace(/:/g, "-")}-${id}.jsonl`),
    jsonl([
      {
        timestamp: iso(0),
        type: "session_meta",
        payload: {
          id,
          timestamp: iso(0),
          cwd,
          originator: "codex_cli_rs",
          source: "cli",
          git: { commit_hash: "0a1b2c3d4e5f60718293a4b5c6d7e8f901234567", branch: "main", repository_url: remote },
        },
      },
      {
        timestamp: iso(1),
        type: "response_item",
        payload: { type: "message", role: "user", content: [{ type: "input_text", text: door("codex-user") }] },
      },
      {
        timestamp: iso(2),
        type: "response_item",
        payload: {
          type: "function_call",
          name: "shell",
          arguments: JSON.stringify({ command: ["bash", "-lc", door("codex-tool-input")] }),
          call_id: "call_1",
        },
      },
      {
        timestamp: iso(3),
        type: "response_item",
        payload: { type: "function_call_output", call_id: "call_1", output: door("codex-tool-output") },
      },
      {
        timestamp: iso(4),
        type: "response_item",
        payload: {
          type: "message",
          role: "assistant",
          content: [{ type: "output_text", text: door("codex-assistant") }],
        },
      },
    ]),
  );
}

function writePi(root: string, cwd: string): void {
  const ms = (offset: number) => AT + offset * 1000;
  write(
    join(root, "sessions", "--work-app--", "2026-01-01T10-00-00-000Z_1111aaaa-2222-4333-8444-555566667777.jsonl"),
    jsonl([
      {
        type: "session",
        id: "1111aaaa-2222-4333-8444-555566667777",
        timestamp: iso(0),
        cwd,
        provider: "anthropic",
        modelId: "m",
      },
      { type: "message", timestamp: iso(1), message: { role: "user", content: door("pi-user"), timestamp: ms(1) } },
      {
        type: "message",
        timestamp: iso(2),
        message: {
          role: "assistant",
          content: [
            { type: "text", text: door("pi-assistant") },
            { type: "toolCall", id: "call_1", name: "bash", arguments: { command: door("pi-tool-input") } },
          ],
          provider: "anthropic",
          model: "m",
          stopReason: "toolUse",
          timestamp: ms(2),
        },
      },
      {
        type: "message",
        timestamp: iso(3),
        message: {
          role: "toolResult",
          toolCallId: "call_1",
          toolName: "bash",
          content: [{ type: "text", text: door("pi-tool-output") }],
          isError: false,
          timestamp: ms(3),
        },
      },
    ]),
  );
}

function writeGemini(root: string): void {
  const hash = "c4193238d6f030edc345c5a5d49e2e243387daa6021feeb37f6cf61cb3f0b9aa";
  write(
    join(root, "tmp", hash, "chats", "session-2026-01-01T10-00-abcd1234.json"),
    JSON.stringify({
      sessionId: "abcd1234-2222-4333-8444-555566667777",
      projectHash: hash,
      startTime: iso(0),
      lastUpdated: iso(5),
      messages: [
        { id: "g-1", timestamp: iso(1), type: "user", content: door("gemini-user") },
        {
          id: "g-2",
          timestamp: iso(2),
          type: "gemini",
          content: door("gemini-assistant"),
          toolCalls: [
            {
              id: "run_shell_command-1",
              name: "run_shell_command",
              args: { command: door("gemini-tool-input") },
              result: [
                {
                  functionResponse: {
                    id: "run_shell_command-1",
                    name: "run_shell_command",
                    response: { output: door("gemini-tool-output") },
                  },
                },
              ],
              status: "success",
              timestamp: iso(2),
            },
          ],
        },
      ],
    }),
  );
}

function writeOpencode(root: string, cwd: string): void {
  const storage = join(root, "storage");
  const project = "0f3c9a7e1b2d4c5e6f7a8b9c0d1e2f3a4b5c6d7a";
  const session = "ses_3a1f0c2d9ffeEveryDoor01";
  const ms = (offset: number) => AT + offset * 1000;
  write(
    join(storage, "project", `${project}.json`),
    JSON.stringify({ id: project, worktree: cwd, vcs: "git", time: { created: ms(0) } }),
  );
  write(
    join(storage, "session", project, `${session}.json`),
    JSON.stringify({
      id: session,
      projectID: project,
      directory: cwd,
      title: door("opencode-title"),
      version: "0.9.0",
      time: { created: ms(0), updated: ms(5) },
    }),
  );
  const messages = [
    { id: "msg_3a1f0c2e0001EveryDoor01", role: "user", time: { created: ms(1) } },
    {
      id: "msg_3a1f0c2e0002EveryDoor01",
      role: "assistant",
      parentID: "msg_3a1f0c2e0001EveryDoor01",
      time: { created: ms(2), completed: ms(4) },
      modelID: "m",
      providerID: "p",
      mode: "build",
      path: { cwd, root: cwd },
    },
  ];
  for (const message of messages) {
    write(join(storage, "message", session, `${message.id}.json`), JSON.stringify({ ...message, sessionID: session }));
  }
  const parts = [
    { message: messages[0]!.id, id: "prt_3a1f0c2e1001EveryDoor01", type: "text", text: door("opencode-user") },
    {
      message: messages[1]!.id,
      id: "prt_3a1f0c2e2002EveryDoor01",
      type: "tool",
      callID: "toolu_1",
      tool: "bash",
      state: {
        status: "completed",
        input: { command: door("opencode-tool-input") },
        output: door("opencode-tool-output"),
        title: "bash",
        metadata: {},
        time: { start: ms(3), end: ms(3) },
      },
    },
    {
      message: messages[1]!.id,
      id: "prt_3a1f0c2e2003EveryDoor01",
      type: "text",
      text: door("opencode-assistant"),
      time: { start: ms(4), end: ms(4) },
    },
  ];
  for (const { message, ...part } of parts) {
    write(
      join(storage, "part", message, `${part.id}.json`),
      JSON.stringify({ ...part, sessionID: session, messageID: message }),
    );
  }
}

/** Every model answer carries the corpus: stage 1 (every field), fact decisions, hints, consolidation. */
function modelAnswer(request: Parameters<typeof schemaName>[0]): string {
  const schema = schemaName(request);
  if (schema === "stage1_memory") {
    const text = door("llm-stage1");
    return JSON.stringify({
      rollout_summary: door("llm-rollout-summary"),
      raw_memory: door("llm-raw-memory"),
      rollout_slug: "deploy-notes",
      facts: [{ content: door("llm-fact"), type: "fact", confidence: 0.9 }],
      entities: [
        { source: text, relationship: "uses", target: door("llm-entity-target"), confidence: 0.8 },
        {
          source: "ghp_R7kW2pQ9xZ4mN8vB3cL6tY1hJ5gF0dS2aE7u",
          relationship: "authenticates",
          target: "Acme API",
          confidence: 0.8,
        },
      ],
    });
  }
  if (schema === "prospective_hints") {
    // Hints are short questions (longer ones are dropped): a few secrets and the private block each.
    const secrets = "ghp_R7kW2pQ9xZ4mN8vB3cL6tY1hJ5gF0dS2aE7u, password=Tr0ub4dor-and-3-horses";
    return JSON.stringify({
      questions: [
        `${canary("llm-hint")}: which token, ${secrets}?`,
        `What is ${PRIVATE_BLOCK} for AKIAZ7QW3ER5TY9UI2OP?`,
      ],
    });
  }
  if (schema === "memory_workspace") {
    return JSON.stringify({
      memory_md: `# Memory\n\n${door("llm-memory-md")}\n`,
      memory_summary_md: `v1\n${door("llm-summary-md")}\n`,
      skills: [{ name: "deploy", description: "How to deploy", body: door("llm-skill") }],
    });
  }
  if (userPrompt(request).startsWith("New fact")) {
    return JSON.stringify({ action: "ADD", reason: door("llm-decision-reason"), confidence: 0.9 });
  }
  return JSON.stringify({ error: `unexpected request ${schema ?? "(no schema)"}` });
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : entry.isFile() ? [full] : [];
  });
}

/** The longest run of letters and digits: what a full-text index keeps of a token. */
function core(raw: string): string {
  return (raw.match(/[A-Za-z0-9]+/g) ?? []).reduce((a, b) => (b.length > a.length ? b : a), "");
}

/** Every file under the home, as bytes: which forbidden values each holds. */
function leaks(home: string): string[] {
  const forbidden = [
    ...CORPUS.flatMap((secret) => secret.raw.flatMap((raw) => [raw, core(raw)])),
    PRIVATE_TEXT,
    "PURPLE-OCTOPUS",
  ];
  return filesUnder(home).flatMap((file) => {
    const bytes = readFileSync(file).toString("latin1").toLowerCase();
    return forbidden
      .filter((value) => bytes.includes(value.toLowerCase()))
      .map((value) => `${value.slice(0, 12)}… in ${file.slice(home.length)}`);
  });
}

describe("every door into the store keeps secrets and <private> text out", () => {
  let root: string;
  let home: string;
  let project: string;
  let server: LoopbackServer;
  let cairn: Cairn;
  const recalled: string[] = [];
  let openLeaks: string[] = [];
  let bytesAtEnd = "";

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), "cairn-every-door-"));
    home = join(root, "cairn");
    project = join(root, "work", "app");
    const userHome = join(root, "user");
    const sources = {
      codex: join(root, "codex"),
      claude: join(root, "claude"),
      pi: join(root, "pi"),
      gemini: join(root, "gemini"),
      opencode: join(root, "opencode"),
    };
    for (const dir of [home, project, userHome, ...Object.values(sources)]) mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(home, "config.yaml"),
      stringify({
        memories: { enabled: true, maxRolloutAgeDays: 3650, minRolloutIdleHours: 0 },
        collection: { idleHours: 0 },
        consolidation: { mode: "llm" },
        recall: { hints: { enabled: true } },
        sources: {
          codex: [sources.codex],
          "claude-code": [sources.claude],
          pi: [sources.pi],
          omp: [join(root, "empty")],
          gemini: [sources.gemini],
          opencode: [sources.opencode],
        },
      }),
    );
    writeClaudeCode(sources.claude, project);
    writeCodex(sources.codex, project);
    writePi(sources.pi, project);
    writeGemini(sources.gemini);
    writeOpencode(sources.opencode, project);

    // The CLI, as a user runs it: `cairn remember "<text>"` and `cairn remember --file items.jsonl`.
    const cli = (...args: string[]) =>
      spawnSync(process.execPath, cliArgs(...args), {
        cwd: project,
        encoding: "utf8",
        env: { PATH: process.env.PATH, CAIRN_HOME: home, HOME: userHome, CAIRN_LLM_PROVIDER: "offline" },
        timeout: 60_000,
      });
    const single = cli("remember", door("cli-text"));
    expect(single.stderr).toBe("");
    const items = join(root, "items.jsonl");
    writeFileSync(items, jsonl([{ content: door("cli-file-1") }, { content: door("cli-file-2"), scope: "global" }]));
    const bulk = cli("remember", "--file", items);
    expect(bulk.stderr).toBe("");

    server = await startLoopbackServer((request) =>
      request.method !== "POST"
        ? { body: { data: [{ id: "fake-model" }] } }
        : { body: completion(modelAnswer(request)) },
    );
    cairn = new Cairn({
      home,
      env: { HOME: userHome },
      config: { "llm.provider": "openai", "llm.baseUrl": `${server.url}/v1`, "llm.model": "fake-model" },
    });

    // The library.
    await cairn.remember({ content: door("library"), cwd: project });
    // HTTP, through the app's request().
    const app = createHttpApp({ cairn });
    const response = await app.request("/api/memory/remember", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ content: door("http"), cwd: project }),
    });
    expect(response.status).toBe(200);
    // MCP, through a real client.
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const mcp = createMcpServer(cairn, { cwd: project });
    await mcp.connect(serverSide);
    const client = new Client({ name: "every-door", version: "1.0.0" });
    await client.connect(clientSide);
    const called = await client.callTool({ name: "remember", arguments: { text: door("mcp") } });
    expect(called.isError ?? false).toBe(false);
    await client.close();
    // The push API: item text (every role) and the session title.
    const session = { agent: "push" as const, cwd: project, title: door("push-title") };
    cairn.appendHistory("push-session-1", { role: "user", text: door("push-user") }, session);
    cairn.appendHistory("push-session-1", { role: "tool_call", tool: "bash", text: door("push-tool-input") }, session);
    cairn.appendHistory(
      "push-session-1",
      { role: "tool_result", tool: "bash", text: door("push-tool-output") },
      session,
    );
    cairn.appendHistory("push-session-1", { role: "assistant", text: door("push-assistant") }, session);
    cairn.endSession("push-session-1");

    // The pipeline: scan every transcript, extract (stage 1 and fact decisions), consolidate, hints.
    const run = await cairn.run({ force: true });
    expect(run.scan.files.filter((file) => file.status === "failed")).toEqual([]);
    expect(run.extract.facts?.written ?? 0).toBeGreaterThan(0);
    expect(run.consolidate.outcome).toBe("succeeded");
    expect(run.hints.hints).toBeGreaterThan(0);

    for (const query of [
      "token password key",
      "ghp_R7kW2pQ9xZ4mN8vB3cL6tY1hJ5gF0dS2aE7u",
      "launch code PURPLE",
      "postgres admin",
    ]) {
      const answer = await cairn.recall({ query, cwd: project, scope: "all", k: 50 });
      recalled.push(...answer.results.map((result) => JSON.stringify(result)));
    }
    openLeaks = leaks(home);
    cairn.close();
    bytesAtEnd = filesUnder(home)
      .map((file) => readFileSync(file).toString("latin1"))
      .join("\n");
  }, 180_000);

  afterAll(async () => {
    cairn?.close();
    await server?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("stores what every door carried (each door's canary arrived)", () => {
    const missing = canaries.filter((canary) => !bytesAtEnd.includes(canary));
    expect(missing).toEqual([]);
    expect(canaries.length).toBeGreaterThan(30);
  });

  it("leaves no raw secret and no private text in any file under CAIRN_HOME, open or closed", () => {
    expect(openLeaks).toEqual([]);
    expect(leaks(home)).toEqual([]);
    expect(bytesAtEnd).toContain("[REDACTED:github-token]");
    expect(bytesAtEnd).toContain("[REDACTED:private]");
  });

  it("recall hands out no raw secret", () => {
    expect(recalled.length).toBeGreaterThan(0);
    const all = recalled.join("\n").toLowerCase();
    const found = CORPUS.flatMap((secret) => secret.raw).filter((raw) => all.includes(raw.toLowerCase()));
    expect(found).toEqual([]);
    expect(all).not.toContain("purple-octopus");
  });
});
