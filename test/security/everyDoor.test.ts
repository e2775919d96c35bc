import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { stringify } from "yaml";
import { Cairn } from "../../src/cairn.js";
import { createHttpApp } from "../../src/server/createHttpApp.js";
import { createMcpServer } from "../../src/server/createMcpServer.js";
import { startDaemon } from "../../src/server/startDaemon.js";
import { completion, schemaName, userPrompt } from "../chaos/support/fakeProvider.js";
import { type EveryDoor, openEveryDoor, runCliCaptured } from "../helpers/everyDoor.js";
import { quotedData } from "../helpers/fakeChatModel.js";
import { callTool } from "../helpers/inProcessMcp.js";
import { type LoopbackServer, startLoopbackServer } from "../helpers/loopbackServer.js";
import { spawnSyncTimed } from "../helpers/timedSpawn.js";
import { cliArgs, tempHome } from "../server/tempHome.js";
import { jsonl, writeTranscripts } from "./support/doorTranscripts.js";
import { CORPUS, doorTexts, PRIVATE_BLOCK, PRIVATE_TEXT } from "./support/secretCorpus.js";

/**
 * Every door into the store, one corpus of secrets and one `<private>` block through each: the CLI,
 * the library, HTTP, MCP, the push API, every transcript format (user text, tool input, tool output,
 * file views) and every kind of model answer; the search terms a caller or a model gives ride along. Afterwards no file under CAIRN_HOME holds a raw secret
 * or the private text, and recall hands none out. Each door also carries a harmless canary that must
 * arrive, so a door that silently dropped its text cannot pass for a guarded one. The corpus and the
 * secrets that wait for new redactor rules: support/secretCorpus.ts.
 */

const texts = doorTexts();
const { canaries, canary, door } = texts;

/**
 * Search terms for one door: its canary, and the corpus's secrets short enough to be a term (a term is at
 * most 40 characters), with and without their context.
 */
function terms(name: string): string[] {
  const short = CORPUS.filter((secret) => secret.text.length <= 40).map((secret) => secret.text);
  return [canary(`${name}-term`), ...short, "ghp_R7kW2pQ9xZ4mN8vB3cL6tY1hJ5gF0dS2aE7u"];
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
      facts: [{ content: door("llm-fact"), type: "fact", confidence: 0.9, terms: terms("llm-fact") }],
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
    const questions = [
      `${canary("llm-hint")}: which token, ${secrets}?`,
      `What is ${PRIVATE_BLOCK} for AKIAZ7QW3ER5TY9UI2OP?`,
    ];
    const memories = quotedData<{ id: number }[]>(userPrompt(request));
    return JSON.stringify({ memories: memories.map(({ id }) => ({ id, questions })) });
  }
  if (schema === "memory_workspace") {
    return JSON.stringify({
      memory_md: `# Memory\n\n${door("llm-memory-md")}\n`,
      memory_summary_md: `v1\n${door("llm-summary-md")}\n`,
      skills: [{ name: "deploy", description: "How to deploy", body: door("llm-skill") }],
    });
  }
  if (userPrompt(request).includes(`"newFact"`)) {
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
    // A home as cairn makes it (private), so the doors print nothing but their own output.
    chmodSync(home, 0o700);
    chmodSync(join(home, "config.yaml"), 0o600);
    writeTranscripts(sources, project, texts);

    // The CLI, as a user runs it: `cairn remember "<text>"` and `cairn remember --file items.jsonl`.
    const cli = (...args: string[]) =>
      spawnSyncTimed(process.execPath, cliArgs(...args), {
        cwd: project,
        encoding: "utf8",
        env: {
          PATH: process.env.PATH,
          TMPDIR: process.env.TMPDIR,
          CAIRN_HOME: home,
          HOME: userHome,
          CAIRN_LLM_PROVIDER: "offline",
        },
      });
    const single = cli("remember", door("cli-text"), ...terms("cli").flatMap((term) => ["--term", term]));
    expect(single.stderr).toBe("");
    const items = join(root, "items.jsonl");
    writeFileSync(
      items,
      jsonl([
        { content: door("cli-file-1"), searchTerms: terms("cli-file") },
        { content: door("cli-file-2"), scope: "global" },
      ]),
    );
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
    await cairn.remember({ content: door("library"), cwd: project, searchTerms: terms("library") });
    // HTTP, through the app's request().
    const app = createHttpApp({ cairn });
    const response = await app.request("/api/memory/remember", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ content: door("http"), cwd: project, searchTerms: terms("http") }),
    });
    expect(response.status).toBe(200);
    // MCP, through a real client.
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const mcp = createMcpServer(cairn, { cwd: project });
    await mcp.connect(serverSide);
    const client = new Client({ name: "every-door", version: "1.0.0" });
    await client.connect(clientSide);
    const called = await client.callTool({
      name: "remember",
      arguments: { text: door("mcp"), searchTerms: terms("mcp") },
    });
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

/**
 * Every door's error prints and log lines: a secret the user typed (an option, a query, a file name, a
 * config value, a request field) comes back redacted, and the line still says what went wrong. Each case
 * names the words its line must keep, so a door that printed nothing could not pass for a guarded one.
 */
describe("no error print or log line of any door echoes a secret", () => {
  const GHP = "ghp_R7kW2pQ9xZ4mN8vB3cL6tY1hJ5gF0dS2aE7u";
  const STRIPE = "sk_live_51HxQwErTyUiOpAsDfGhJkLz0123456789abcdef";
  const PASSWORD = "password=Tr0ub4dor-and-3-horses";
  /** What must not come back: each corpus secret and its longest alphanumeric run. */
  const echoed = (text: string) =>
    CORPUS.flatMap((secret) => secret.raw.flatMap((raw) => [raw, core(raw)])).filter((raw) =>
      text.toLowerCase().includes(raw.toLowerCase()),
    );
  let doors: EveryDoor;

  beforeAll(async () => {
    doors = await openEveryDoor("error-prints");
    // One memory, so that a recall finds "no match" rather than "nothing to search".
    await doors.cairn.remember({ content: "Builds run on the nightly runner.", scope: "global" });
  });
  afterAll(() => doors?.close());

  it("the CLI: an unknown option, a bad option value, an unknown command, a --file name", async () => {
    const missing = join(doors.temp.root, `items-${GHP}.jsonl`);
    const notJson = join(doors.temp.root, `${PASSWORD}.jsonl`);
    writeFileSync(notJson, `{"content": "the token is ${STRIPE}"\n`);
    const cases: [string[], RegExp][] = [
      [["recall", "builds", `--token=${GHP}`], /unknown option/],
      [[`--api-key=${STRIPE}`, "status"], /unknown option/],
      [["recall", "builds", "--k", GHP], /--k must be a whole number/],
      [["install", GHP], /no connector for/],
      [["remember", "--file", missing], /cannot read .*ENOENT/],
      [["remember", "--file", notJson], /is not valid JSON; nothing was stored/],
    ];
    for (const [args, says] of cases) {
      const { code, stdout, stderr } = await runCliCaptured(doors.temp.home, args);
      expect(code, args.join(" ")).not.toBe(0);
      expect(stderr, args.join(" ")).toMatch(says);
      expect(echoed(stdout + stderr), args.join(" ")).toEqual([]);
    }
  });

  it("the CLI with CAIRN_DEBUG: an unexpected error's line and its stack", async () => {
    const before = process.env.CAIRN_DEBUG;
    process.env.CAIRN_DEBUG = "1";
    // Not one of cairn's own errors (those print no stack): a failure from below that quotes its input.
    const failing = vi.spyOn(Cairn.prototype, "recall").mockRejectedValue(new Error(`request failed for token ${GHP}`));
    try {
      const { stderr } = await runCliCaptured(doors.temp.home, ["recall", "builds"]);
      expect(stderr).toMatch(/^cairn: request failed for token \[REDACTED:github-token\]\n/);
      expect(stderr).toMatch(/\n {4}at /);
      expect(echoed(stderr)).toEqual([]);
    } finally {
      failing.mockRestore();
      if (before === undefined) delete process.env.CAIRN_DEBUG;
      else process.env.CAIRN_DEBUG = before;
    }
  });

  it("recall's 'no match' line at every door", async () => {
    const query = `use token ${GHP} and ${PASSWORD}`;
    const printed = await runCliCaptured(doors.temp.home, ["recall", query, "--scope", "global"]);
    const json = await runCliCaptured(doors.temp.home, ["recall", query, "--scope", "global", "--json"]);
    const library = await doors.cairn.recall({ query, scope: "global" });
    const http = await doors.app.request("/api/memory/recall", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query, scope: "global" }),
    });
    const mcp = await callTool(doors.client, "recall", { query, scope: "global" });
    const answers = {
      cli: printed.stdout,
      json: json.stdout,
      library: library.reason?.message ?? "",
      http: await http.text(),
      mcp: mcp.text,
    };
    for (const [door, text] of Object.entries(answers)) {
      expect(text, door).toMatch(/no memory matched/);
      expect(text, door).toContain("[REDACTED:");
      expect(echoed(text), door).toEqual([]);
    }
  });

  it("HTTP error bodies: an unknown route, a bad request, a body that is not JSON", async () => {
    const post = (path: string, body: string) =>
      doors.app.request(path, { method: "POST", headers: { "content-type": "application/json" }, body });
    const responses: [Response, RegExp][] = [
      [await doors.app.request(`/api/${GHP}`), /no route/],
      [await post("/api/documents/ingest", JSON.stringify({ url: `token ${GHP}`, scope: "global" })), /is not a URL/],
      [await post("/api/read", JSON.stringify({ url: `cairn://memory/${PASSWORD}` })), /./],
      [await post("/api/memory/remember", `{"content": "${STRIPE}"`), /not valid JSON/],
    ];
    for (const [response, says] of responses) {
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
      const body = await response.text();
      expect(body).toMatch(says);
      expect(echoed(body), body).toEqual([]);
    }
  });

  it("MCP tool errors: bad arguments, an unknown tool", async () => {
    const calls: [string, Record<string, unknown>, RegExp][] = [
      ["ingest_document", { url: `token ${GHP}`, scope: "global" }, /is not a URL/],
      ["read", { url: `cairn://memory/${PASSWORD}` }, /./],
      ["recall", { query: 42, scope: STRIPE }, /./],
      [`forget_${GHP}`, {}, /not found/],
    ];
    for (const [name, args, says] of calls) {
      const result = await callTool(doors.client, name, args).catch((error: unknown) => ({
        isError: true,
        text: String(error),
      }));
      expect(result.isError, name).toBe(true);
      expect(result.text, name).toMatch(says);
      expect(echoed(result.text), result.text).toEqual([]);
    }
  });

  it("the library: what its methods throw on a URL, a file name, a file's text, a memory URL or a field", async () => {
    const dir = join(doors.temp.root, "library-door");
    mkdirSync(join(dir, `empty-${GHP}`), { recursive: true });
    const binary = join(dir, `${PASSWORD}.md`);
    writeFileSync(binary, Buffer.from([0x23, 0x20, 0x00, 0x01]));
    const json = join(dir, `notes-${GHP}.json`);
    writeFileSync(json, `{"token": "${STRIPE}" oops}`);
    const exportFile = `{"format":"cairn-memories","version":1}\n{"id": 1, "content": "${STRIPE}", "scope": 7}\n`;
    // A URL that answers 500: the library names the address it failed on, as given, without its secrets.
    const failing = await startLoopbackServer(() => ({ status: 500, body: "down" }));
    const open = tempHome();
    // Private, as cairn makes a home: opening it prints nothing.
    chmodSync(open.home, 0o700);
    chmodSync(join(open.home, "config.yaml"), 0o600);
    const excludedFolder = join(dir, `private-${GHP}`);
    mkdirSync(excludedFolder);
    const configured = new Cairn({
      home: open.home,
      env: open.env,
      config: { "workers.documents.allowPrivateAddresses": true, "memories.exclude": [join(dir, "private-*")] },
    });
    // A config value in the wrong place, read when the library opens a home.
    const badConfig = tempHome();
    writeFileSync(
      join(badConfig.home, "config.yaml"),
      stringify({ server: { port: PASSWORD }, llm: { baseUrl: GHP } }),
    );
    const { cairn } = doors;
    const cases: [string, () => unknown, RegExp][] = [
      [
        "ingest a URL that answers 500",
        () => configured.ingest({ url: `${failing.url}/docs/${GHP}/page?access_token=${STRIPE}`, scope: "global" }),
        /HTTP 500; check the address; nothing was stored/,
      ],
      [
        "ingest a private address",
        () => cairn.ingest({ url: `http://127.0.0.1:9/${GHP}/page?key=${STRIPE}`, scope: "global" }),
        /loopback, link-local or private address/,
      ],
      ["ingest what is not a URL", () => cairn.ingest({ url: `token ${GHP}`, scope: "global" }), /is not a URL/],
      [
        "ingest a missing file",
        () => cairn.ingest({ path: join(dir, `notes-${GHP}.md`), scope: "global" }),
        /does not exist/,
      ],
      ["ingest a binary file", () => cairn.ingest({ path: binary, scope: "global" }), /is binary, not text/],
      ["ingest a broken JSON file", () => cairn.ingest({ path: json, scope: "global" }), /is not valid JSON/],
      [
        "ingest a folder without documents",
        () => cairn.ingest({ path: join(dir, `empty-${GHP}`), scope: "global" }),
        /holds no .* files/,
      ],
      [
        "import a bad line",
        () => cairn.importMemories(exportFile, join(dir, `export-${GHP}.jsonl`)),
        /nothing was imported/,
      ],
      [
        "import what is not JSON",
        () => cairn.importMemories(`{"token": "${STRIPE}"`, `${PASSWORD}.jsonl`),
        /not valid JSON; nothing was imported/,
      ],
      ["read a memory URL", () => cairn.readMemory(`memory://global/${GHP}.md`), /memory/],
      ["read a bad memory URL", () => cairn.readMemory(`memory://${PASSWORD}/${GHP}`), /expected memory:\/\/root/],
      [
        "append a history item with a bad time",
        () =>
          cairn.appendHistory("library-door", {
            role: "user",
            text: "hello",
            ts: `${GHP}` as unknown as number,
          }),
        /item.ts must be epoch milliseconds/,
      ],
    ];
    // Every case's message, so one run shows each that echoes a secret.
    const messages: Record<string, string> = {};
    const more: typeof cases = [
      [
        "remember from an excluded folder",
        () => configured.remember({ content: "Builds run on the nightly runner.", cwd: excludedFolder }),
        /is excluded by memories.exclude/,
      ],
      [
        "ingest from an excluded folder",
        () => configured.ingest({ content: "Builds run nightly.", title: "Builds", cwd: excludedFolder }),
        /is excluded by memories.exclude/,
      ],
      [
        "remember with a date that is not one",
        () => cairn.remember({ content: "Builds run nightly.", scope: "global", occurredAt: `at ${GHP}` }),
        /occurredAt must be epoch milliseconds or an ISO date/,
      ],
      [
        "recall with an unknown field",
        () => cairn.recall({ query: "builds", scope: "global", [GHP]: 1 } as never),
        /unknown field/,
      ],
      ["open a home whose config is wrong", () => new Cairn({ home: badConfig.home, env: badConfig.env }), /config: /],
    ];
    cases.push(...more);
    try {
      for (const [name, call] of cases) {
        messages[name] = await Promise.resolve()
          .then(call)
          .then(
            () => "(nothing thrown)",
            (thrown: unknown) => (thrown instanceof Error ? thrown.message : `(not an Error) ${String(thrown)}`),
          );
      }
    } finally {
      configured.close();
      open.cleanup();
      badConfig.cleanup();
      await failing.close();
    }
    for (const [name, , says] of cases) expect(messages[name], name).toMatch(says);
    const echoing = Object.entries(messages).filter(([, message]) => echoed(message).length > 0);
    expect(echoing).toEqual([]);
  });

  it("the library: a folder's refused file, as its ingest report lists it", async () => {
    const folder = join(doors.temp.root, "library-folder");
    mkdirSync(folder);
    writeFileSync(join(folder, "builds.md"), "Builds run on the nightly runner.\n");
    writeFileSync(join(folder, `notes-${GHP}.md`), Buffer.from([0x23, 0x20, 0x00, 0x01]));
    const report = await doors.cairn.ingest({ path: folder, scope: "global" });
    expect(report.documents).toHaveLength(1);
    const failed = JSON.stringify(report.failed);
    expect(failed).toMatch(/notes-\[REDACTED:github-token\]\.md is binary, not text/);
    expect(echoed(failed)).toEqual([]);
  });

  it("the daemon's log: a failing step's message", async () => {
    const temp = tempHome();
    const cairn = new Cairn({ home: temp.home, env: temp.env });
    // Whatever a step fails with is logged; here its message quotes a token.
    vi.spyOn(cairn, "reopenIfReplaced").mockImplementation(() => {
      throw new Error(`the provider answered 401: bad credentials ${GHP}`);
    });
    const lines: string[] = [];
    const manual = { set: () => 0, clear: () => {} };
    const daemon = await startDaemon({ cairn, host: "127.0.0.1", port: 0, timers: manual, log: (l) => lines.push(l) });
    try {
      daemon.scheduler?.trigger();
      await expect.poll(() => lines.filter((line) => line.startsWith("pipeline error")).length).toBe(1);
    } finally {
      await daemon.stop();
      temp.cleanup();
    }
    const log = lines.join("\n");
    expect(log).toMatch(/pipeline error: the provider answered 401: bad credentials \[REDACTED:github-token\]/);
    expect(echoed(log)).toEqual([]);
  });

  it("a config value in the wrong place: the CLI's error and a hook's line", async () => {
    const temp = tempHome();
    try {
      mkdirSync(temp.home, { recursive: true });
      writeFileSync(join(temp.home, "config.yaml"), stringify({ server: { port: PASSWORD }, llm: { baseUrl: GHP } }));
      const status = await runCliCaptured(temp.home, ["status"]);
      expect(status.stderr).toMatch(/config: server.port/);
      expect(echoed(status.stderr)).toEqual([]);
      const hook = spawnSyncTimed(process.execPath, cliArgs("hook", "session-start", "--agent", "claude-code"), {
        cwd: temp.project,
        encoding: "utf8",
        input: "{}",
        env: temp.env,
      });
      expect(hook.status).toBe(0);
      expect(hook.stderr).toMatch(/cairn hook: config: server.port/);
      expect(echoed(hook.stderr)).toEqual([]);
    } finally {
      temp.cleanup();
    }
  });
});
