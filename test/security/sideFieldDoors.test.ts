import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Cairn } from "../../src/cairn.js";
import { parseStage1 } from "../../src/pipeline/phase1/parseStage1.js";
import { scrubSecrets } from "../../src/pipeline/phase2/workspaceFiles.js";
import { completion, schemaName, userPrompt } from "../chaos/support/fakeProvider.js";
import { openEveryDoor, runCliOn } from "../helpers/everyDoor.js";
import { type LoopbackServer, startLoopbackServer } from "../helpers/loopbackServer.js";
import { cliArgs, type TempHome, tempHome } from "../server/tempHome.js";
import { jsonl } from "./support/doorTranscripts.js";

/**
 * The side doors of issue 33 (4.8, 4.11, 4.12, 4.16): names a model generates (rollout slug, skill
 * name, entity relationship), identifiers a caller names (session keys, scope and project labels, push
 * ids, tools, cwd, git branch), bare values given as search terms, a `<private>` block split across
 * messages, text blocks and pushes, what goes to the embedding provider, and what `cairn run`,
 * `config list` and `doctor` print. Each token is planted where the rules once missed it; afterwards no
 * file under CAIRN_HOME holds it, in any case and with `_` or `-` in any place.
 */

// Real formats, synthetic values.
const GITHUB_PAT = "github_pat_11ABCDEFG0aZ9bY8cX7dW6_eV5fU4gT3hS2iR1jQ0kP9lO8mN7nM6oL5pK4qJ3rI2sH1tG0uF9";
const SLACK = "xoxb-2231456789012-9876543210987-QwErTyUiOpAsDfGhJkLzXcVb";
const STRIPE = "sk_live_51HxQwErTyUiOpAsDfGhJkLz0123456789abcdef";
const GHP = "ghp_R7kW2pQ9xZ4mN8vB3cL6tY1hJ5gF0dS2aE7u";
const NPM = "npm_Q4wE6rT8yU0iO2pA4sD6fG8hJ0kL2zX4cV6b";
const ANTHROPIC = `sk-ant-api03-${"Zq8Wm2Kx6Np0Vb3Yc7Hd1Rt5Lf9Gs4Jk8".repeat(2)}Ab12Cd34-AA`;
/** Bare values a user could give as `--term`: no name around them for a rule to read. */
const BARE = ["Vu7nQ2zLx9pR4wKt", "Tr0ub4dor&3xQz9Wv", "Jx8Vq2Lm4Nz6Rt0Wy3Bc5Df7Gh9Kp1Ms4Qu6Xa8Z", "Hunter2Hunter2xq"];
const PRIVATE = ["MARK-ONE-7781", "MARK-TWO-7782", "MARK-THREE-7783", "MARK-FOUR-7784", "MARK-PUSH-7785"];
const TOKENS = [GITHUB_PAT, SLACK, STRIPE, GHP, NPM, ANTHROPIC];

/**
 * A value as a reshaped name may hold it: lowercased, `_` and `-` swapped, or (for a token) its longest
 * alphanumeric run, which is what a full-text index keeps.
 */
function shapes(value: string): string[] {
  const lower = value.toLowerCase();
  const core = (value.match(/[A-Za-z0-9]+/g) ?? []).reduce((a, b) => (b.length > a.length ? b : a), "");
  return [
    lower,
    lower.replace(/_/g, "-"),
    lower.replace(/[^a-z0-9]+/g, "-"),
    ...(core.length >= 12 ? [core.toLowerCase()] : []),
  ];
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = join(dir, entry.name);
    return entry.isDirectory() ? [full, ...filesUnder(full)] : [full];
  });
}

/** Every forbidden value found in a path or in the bytes of a file under `home`. */
function leaks(home: string, forbidden: string[]): string[] {
  const wanted = forbidden.flatMap((value) => shapes(value).map((shape) => [value, shape] as const));
  return filesUnder(home).flatMap((path) => {
    const bytes = existsSync(path) && !path.endsWith("/") ? safeRead(path) : "";
    const where = `${path.slice(home.length)}\n${bytes}`.toLowerCase();
    return wanted.filter(([, shape]) => where.includes(shape)).map(([value]) => `${value.slice(0, 14)}… in ${path}`);
  });
}

function safeRead(path: string): string {
  try {
    return readFileSync(path).toString("latin1");
  } catch {
    return "";
  }
}

const DAY = 86_400_000;
const iso = (offset: number) => new Date(Date.now() - 5 * DAY + offset * 1000).toISOString();

/** A Claude Code session whose user splits private blocks across messages and text blocks. */
function writeClaudeSession(root: string, cwd: string, id: string, branch: string): void {
  const base = { isSidechain: false, userType: "external", cwd, sessionId: id, version: "2.1.39", gitBranch: branch };
  const uuid = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, "0")}`;
  const user = (n: number, content: unknown) => ({
    ...base,
    parentUuid: n === 1 ? null : uuid(n - 1),
    type: "user",
    message: { role: "user", content },
    uuid: uuid(n),
    timestamp: iso(n),
  });
  const assistant = (n: number, text: string) => ({
    ...base,
    parentUuid: uuid(n - 1),
    type: "assistant",
    message: {
      role: "assistant",
      model: "claude-opus-4-6",
      id: `msg_${n}`,
      type: "message",
      content: [{ type: "text", text }],
    },
    uuid: uuid(n),
    timestamp: iso(n),
  });
  const dir = join(root, "projects", cwd.replace(/[^a-zA-Z0-9]/g, "-"));
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, `${id}.jsonl`),
    jsonl([
      user(1, `We deploy the billing service with blue-green releases. <private>${PRIVATE[0]} my salary`),
      assistant(2, "Understood, continuing."),
      user(3, `${PRIVATE[1]} and my review </private> We always run the smoke suite before switching traffic.`),
      user(4, [
        { type: "text", text: `Release notes go in CHANGELOG.md. <private>${PRIVATE[2]}` },
        { type: "text", text: `${PRIVATE[3]} </private> Tag releases as vYYYY.MM.` },
      ]),
      assistant(5, "Noted the release process."),
    ]),
  );
}

/** The fake model: stage 1 and consolidation put tokens where a name is made from them. */
function modelAnswer(request: Parameters<typeof schemaName>[0]): string {
  const schema = schemaName(request);
  if (schema === "stage1_memory") {
    return JSON.stringify({
      rollout_summary: "The billing service deploys blue-green after the smoke suite.",
      raw_memory: "- deploys are blue-green\n- the smoke suite runs before traffic switches",
      rollout_slug: `deploy-${GITHUB_PAT}`,
      facts: [],
      entities: [
        { source: "Deploy bot", relationship: `authenticates-${SLACK}`, target: "Acme API", confidence: 0.8 },
        { source: "Billing", relationship: `uses_${GHP}`, target: "GitHub", confidence: 0.8 },
      ],
    });
  }
  if (schema === "memory_workspace") {
    return JSON.stringify({
      memory_md: "# Memory\n\nDeploys are blue-green.\n",
      memory_summary_md: "v1\nDeploys are blue-green.\n",
      skills: [{ name: `deploy-${STRIPE}`, description: "How to deploy", body: "Run the smoke suite, then switch." }],
    });
  }
  return JSON.stringify({ error: `unexpected request ${schema ?? "(no schema)"}` });
}

describe("generated names, side fields and split <private> blocks pass the guard before anything else (issue 33)", () => {
  let temp: TempHome;
  let server: LoopbackServer;
  let cairn: Cairn;
  let relations: string[] = [];
  let stage1Prompts = "";
  let embedded = "";

  beforeAll(async () => {
    temp = tempHome();
    const claude = join(temp.root, "claude");
    writeClaudeSession(claude, temp.project, "6b1c2d3e-4f5a-4b61-8c72-8d93e4fa0b11", `fix/rotate-${NPM}`);
    server = await startLoopbackServer((request) => {
      if (request.method !== "POST") return { body: { data: [{ id: "fake-model" }] } };
      if (request.path.endsWith("/embeddings")) {
        const { input, dimensions } = request.body as { input: string[]; dimensions: number };
        embedded += `${JSON.stringify(input)}\n`;
        return { body: { data: input.map((_, index) => ({ index, embedding: Array(dimensions).fill(0.1) })) } };
      }
      return { body: completion(modelAnswer(request)) };
    });
    cairn = new Cairn({
      home: temp.home,
      env: temp.env,
      config: {
        "llm.provider": "openai",
        "llm.baseUrl": `${server.url}/v1`,
        "llm.model": "fake-model",
        "consolidation.mode": "llm",
        "memories.maxRolloutAgeDays": 3650,
        "memories.minRolloutIdleHours": 0,
        "collection.idleHours": 0,
        "recall.hints.enabled": false,
        "embeddings.provider": "openai",
        "embeddings.baseUrl": `${server.url}/v1`,
        "sources.claude-code": [claude],
        "sources.codex": [join(temp.root, "none")],
        "sources.pi": [join(temp.root, "none")],
        "sources.omp": [join(temp.root, "none")],
        "sources.gemini": [join(temp.root, "none")],
        "sources.opencode": [join(temp.root, "none")],
      },
    });

    // Identifiers a caller names: the remember session key, a scope label, the library's project.
    await cairn.remember({
      content: "The release train leaves on Tuesdays.",
      cwd: temp.project,
      sessionKey: `session-${GHP}`,
      transcript: "user: when does the release train leave?",
      project: `acme-${STRIPE}`,
    });
    await cairn.remember({ content: "Staging resets every night.", scope: `team-${SLACK}` });
    // Push identifiers, and a private block split across two pushes of one session.
    const pushed = `push-${SLACK}`;
    const session = { cwd: join(temp.project, `key-${GHP}`) };
    cairn.appendHistory(pushed, { role: "user", text: `Remember the on-call rota. <private>${PRIVATE[4]}` }, session);
    cairn.appendHistory(pushed, { role: "user", text: "still private </private> The rota is weekly." }, session);
    cairn.appendHistory(pushed, { role: "tool_call", tool: `mcp-${GHP}`, callId: `call-${NPM}`, text: "ls" }, session);
    cairn.endSession(pushed);

    const run = await cairn.run({ force: true });
    expect(run.consolidate.outcome).toBe("succeeded");
    stage1Prompts = server.requests
      .filter((request) => schemaName(request) === "stage1_memory")
      .map((request) => userPrompt(request))
      .join("\n");
    await cairn.recall({ query: `which token is ${GHP} or ${SLACK}?`, cwd: temp.project, scope: "all" });
    cairn.close();
    const db = new Database(join(temp.home, "cairn.db"), { readonly: true });
    relations = (db.prepare("SELECT relation_type FROM relations").all() as Array<{ relation_type: string }>).map(
      (row) => row.relation_type,
    );
    db.close();
  }, 120_000);

  afterAll(async () => {
    cairn?.close();
    await server?.close();
    temp?.cleanup();
  });

  it("stage 1 and consolidation ran on the session", () => {
    expect(stage1Prompts).toContain("smoke suite");
    expect(relations.length).toBeGreaterThan(0);
  });

  it("guards a model's rollout slug, skill name and relationship before they become file names and rows", () => {
    expect(leaks(temp.home, [GITHUB_PAT, SLACK, STRIPE, GHP])).toEqual([]);
    const skills = filesUnder(join(temp.home, "memories")).filter((path) => /\/skills\/[^/]+$/.test(path));
    expect(skills.map((path) => path.slice(path.lastIndexOf("/") + 1))).toContain("deploy-redacted-stripe-key");
    expect(relations.join(" ")).toContain("[REDACTED:slack-token]");
  });

  it("guards the identifiers a caller names and the git branch", () => {
    expect(leaks(temp.home, TOKENS)).toEqual([]);
  });

  it("drops what precedes </private> in the next message, text block and push", () => {
    expect(leaks(temp.home, PRIVATE)).toEqual([]);
    for (const mark of PRIVATE) expect(stage1Prompts).not.toContain(mark);
    expect(stage1Prompts).toContain("smoke suite before switching traffic");
    expect(stage1Prompts).toContain("Tag releases as vYYYY.MM.");
  });

  it("sends no token of a recall query to the embedding provider", () => {
    expect(embedded).toContain("which token is");
    for (const token of [GHP, SLACK]) expect(embedded).not.toContain(token);
  });
});

describe("a generated name is guarded before it is reshaped", () => {
  it("a rollout slug keeps no token, whatever its case or separators", () => {
    const { extraction } = parseStage1(
      JSON.stringify({
        rollout_summary: "s",
        raw_memory: "m",
        rollout_slug: `deploy-${GITHUB_PAT}`,
        facts: [],
        entities: [],
      }),
    );
    expect(extraction.rolloutSlug).toBe("deploy-redacted-github-fine-grained-token");
  });

  it("a skill folder an agent named after a token is renamed by its guarded name", () => {
    const temp = tempHome();
    try {
      const folder = join(temp.home, "skills", `deploy_${STRIPE}`);
      mkdirSync(folder, { recursive: true });
      writeFileSync(join(folder, "SKILL.md"), "---\nname: deploy\ndescription: d\n---\n\nRun it.\n");
      expect(scrubSecrets(temp.home)).toEqual([join("skills", "deploy-redacted-stripe-key")]);
      expect(readdirSync(join(temp.home, "skills"))).toEqual(["deploy-redacted-stripe-key"]);
    } finally {
      temp.cleanup();
    }
  });
});

describe("a <private> block left open when a transcript is read", () => {
  it("continues into the user's next message written after the read (an appended read)", async () => {
    const temp = tempHome();
    try {
      const claude = join(temp.root, ".claude");
      const id = "9e4f5a6b-7c8d-4e94-bfa5-b06c172d3e44";
      writeClaudeSession(claude, temp.project, id, "main");
      const file = join(claude, "projects", temp.project.replace(/[^a-zA-Z0-9]/g, "-"), `${id}.jsonl`);
      const lines = readFileSync(file, "utf8").trimEnd().split("\n");
      // The last user message leaves a block open; its close arrives after the first scan.
      const open = JSON.parse(lines[0]!) as { message: { content: string }; uuid: string };
      const opening = {
        ...open,
        uuid: "00000000-0000-4000-8000-0000000000a1",
        parentUuid: "00000000-0000-4000-8000-000000000005",
      };
      opening.message = { ...open.message, content: "One more thing <private>MARK-LATE-7786 my bank" };
      writeFileSync(file, `${lines.join("\n")}\n${JSON.stringify(opening)}\n`);
      const cairn = new Cairn({ home: temp.home, env: temp.env });
      await cairn.scan();
      const closing = {
        ...opening,
        uuid: "00000000-0000-4000-8000-0000000000a2",
        parentUuid: opening.uuid,
        message: { ...open.message, content: "MARK-LATER-7787 pin </private> Use the staging bucket for tests." },
      };
      writeFileSync(file, `${readFileSync(file, "utf8")}${JSON.stringify(closing)}\n`);
      const second = await cairn.scan();
      expect(second.files.map((f) => f.read)).toContain("append");
      cairn.close();
      expect(leaks(temp.home, ["MARK-LATE-7786", "MARK-LATER-7787"])).toEqual([]);
      expect(filesUnder(temp.home).map(safeRead).join("\n")).toContain("Use the staging bucket for tests.");
    } finally {
      temp.cleanup();
    }
  }, 60_000);
});

describe("identifiers a caller names, through every remember door", () => {
  it("the CLI's --file, HTTP and MCP store no token of a session key or a scope label", async () => {
    const doors = await openEveryDoor("side-fields");
    try {
      const items = join(doors.temp.root, "items.jsonl");
      writeFileSync(
        items,
        jsonl([
          { content: "Builds run on the arm runners.", scope: `ci-${NPM}`, sessionKey: `cli-${GHP}`, transcript: "t" },
        ]),
      );
      expect((await runCliOn(doors.temp.home, ["remember", "--file", items])).code).toBe(0);
      const http = await doors.app.request("/api/memory/remember", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          content: "Nightly builds publish at three.",
          scope: `ops-${SLACK}`,
          sessionKey: `http-${STRIPE}`,
          transcript: "t",
        }),
      });
      expect(http.status).toBe(200);
      const mcp = await doors.client.callTool({
        name: "remember",
        arguments: {
          text: "The cache is warmed before deploys.",
          scope: `cache-${GITHUB_PAT}`,
          sessionKey: `mcp-${GHP}`,
          transcript: "t",
        },
      });
      expect(mcp.isError ?? false).toBe(false);
      doors.cairn.close();
      expect(leaks(doors.temp.home, [NPM, GHP, SLACK, STRIPE, GITHUB_PAT])).toEqual([]);
      const bytes = filesUnder(doors.temp.home).map(safeRead).join("\n");
      for (const memory of ["arm runners", "publish at three", "warmed before deploys"])
        expect(bytes).toContain(memory);
    } finally {
      await doors.close();
    }
  }, 60_000);
});

describe("bare values given as search terms", () => {
  it("are dropped by the CLI, the library and a model's terms alike", async () => {
    const temp = tempHome();
    try {
      const terms = [...BARE, "blue-green", "IPv6Address"].flatMap((term) => ["--term", term]);
      const cli = await runCliOn(temp.home, ["remember", "Deploys are blue-green with a smoke suite first.", ...terms]);
      expect(cli.code).toBe(0);
      const cairn = new Cairn({ home: temp.home, env: temp.env });
      await cairn.remember({ content: "Staging resets every night at two.", searchTerms: [...BARE, "staging"] });
      cairn.close();
      expect(leaks(temp.home, BARE)).toEqual([]);
      const bytes = filesUnder(temp.home).map(safeRead).join("\n");
      expect(bytes).toContain("IPv6Address");
    } finally {
      temp.cleanup();
    }
  });
});

/** The CLI as a child process, without blocking this process's loopback server. */
function cli(temp: TempHome, args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, cliArgs(...args), { cwd: temp.project, env: { ...temp.env, ...env } });
    let out = "";
    child.stdout.on("data", (chunk) => {
      out += String(chunk);
    });
    child.stderr.on("data", (chunk) => {
      out += String(chunk);
    });
    child.on("close", (code) => resolve({ code: code ?? -1, out }));
  });
}

describe("what the CLI prints", () => {
  let temp: TempHome;
  let server: LoopbackServer;

  beforeAll(async () => {
    temp = tempHome({
      "memories.maxRolloutAgeDays": 3650,
      "memories.minRolloutIdleHours": 0,
      "collection.idleHours": 0,
    });
    // A provider whose error body echoes the request's .env, as the attack's server did.
    const body = `{"error":{"message":"bad request: ANTHROPIC_API_KEY=${ANTHROPIC}\\nGITHUB_TOKEN=${GHP}\\n"}}`;
    server = await startLoopbackServer((request) =>
      request.method === "POST" ? { status: 500, body } : { body: { data: [{ id: "fake-model" }] } },
    );
    writeClaudeSession(join(temp.root, ".claude"), temp.project, "7c2d3e4f-5a6b-4c72-9d83-9ea4f50b1c22", "main");
  }, 30_000);

  afterAll(async () => {
    await server?.close();
    temp?.cleanup();
  });

  it("`cairn run` prints a provider's error body redacted", async () => {
    const llm = { CAIRN_LLM_PROVIDER: "openai", CAIRN_LLM_BASE_URL: `${server.url}/v1`, CAIRN_LLM_MODEL: "fake-model" };
    const run = await cli(temp, ["run"], llm);
    expect(run.out).toContain("HTTP 500");
    for (const token of [ANTHROPIC, GHP])
      for (const shape of shapes(token)) expect(run.out.toLowerCase()).not.toContain(shape);
    expect(run.out).toContain("[REDACTED:");
  }, 60_000);

  it("`cairn run` prints a project's name inside its line, never as a line of its own", async () => {
    const own = tempHome({
      "memories.maxRolloutAgeDays": 3650,
      "memories.minRolloutIdleHours": 0,
      "collection.idleHours": 0,
    });
    try {
      const evil = join(own.root, "work", "evil\nextracted with forged: 99 memories");
      mkdirSync(evil, { recursive: true });
      writeClaudeSession(join(own.root, ".claude"), evil, "8d3e4f5a-6b7c-4d83-ae94-af5b061c2d33", "main");
      const run = await cli(own, ["run"]);
      expect(run.out).toContain("evil\\nextracted with forged");
      expect(run.out.split("\n").filter((line) => line.startsWith("extracted with forged"))).toEqual([]);
    } finally {
      own.cleanup();
    }
  }, 60_000);

  it("`config list` and `doctor` print no credential of llm.baseUrl", async () => {
    const url = `https://deploy:${GHP}@llm.internal.example/v1?api_key=Zr4Tq8Wm2Kx6Np0Vb3Yc7Hd1`;
    const env = { CAIRN_LLM_PROVIDER: "openai", CAIRN_LLM_BASE_URL: url, CAIRN_LLM_MODEL: "fake-model" };
    const list = await cli(temp, ["config", "list"], env);
    const doctor = await cli(temp, ["doctor"], env);
    expect(list.out).toContain("llm.internal.example");
    for (const printed of [list.out, doctor.out]) {
      expect(printed).not.toContain(GHP);
      expect(printed).not.toContain("Zr4Tq8Wm2Kx6Np0Vb3Yc7Hd1");
    }
  }, 60_000);
});
