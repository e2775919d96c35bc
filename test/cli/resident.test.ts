import { type ChildProcess, spawn } from "node:child_process";
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { connect, createServer } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Cairn } from "../../src/cairn.js";
import { tempDir } from "../helpers/tempDir.js";
import { finished } from "../helpers/timedSpawn.js";

// The resident process (src/cli/resident/): `cairn serve` answers recall and inject for the built
// CLI. Every answer must be the one the CLI prints by itself, byte for byte; these tests run each
// command line once against a memory root with a resident process and once against an identical
// copy without one.

const root = join(import.meta.dirname, "..", "..");
// The package's bin (the CommonJS build of src/cli/main.ts), as `cairn` runs it.
const bin = join(
  root,
  (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { bin: { cairn: string } }).bin.cairn,
);
const built = existsSync(bin);
if (!built) console.warn(`resident suite skipped: ${bin} is missing (run npm run build)`);

interface Serve {
  process: ChildProcess;
  stderr: () => string;
  exited: Promise<unknown>;
}

let dir = "";
let cold = "";
let warm = "";
let project = "";
let env: NodeJS.ProcessEnv = {};
let serve: Serve | undefined;

function startServe(home: string): Promise<Serve> {
  const child = spawn(process.execPath, [bin, "serve", "--no-schedule", "--port", "0"], {
    env: { ...env, CAIRN_HOME: home, CAIRN_DEBUG: "1" },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  const exited = new Promise((done) => child.once("exit", done));
  return new Promise((done, fail) => {
    child.stderr!.setEncoding("utf8");
    child.stderr!.on("data", (chunk: string) => {
      stderr += chunk;
      if (stderr.includes("resident: answering")) done({ process: child, stderr: () => stderr, exited });
    });
    child.once("exit", () => fail(new Error(`cairn serve ended: ${stderr}`)));
  });
}

async function stopServe(signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
  if (!serve) return;
  serve.process.kill(signal);
  await serve.exited;
  serve = undefined;
}

/** The built CLI, run without blocking this process (a fake server here must be able to answer). */
function run(
  args: string[],
  home: string,
  cwd = dir,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return finished(spawn(process.execPath, [bin, ...args], { env: { ...env, CAIRN_HOME: home }, cwd }));
}

/** Recall's JSON reports how long each stage took; those figures differ between any two runs. */
function withoutTimings(text: string): string {
  return text.replace(/"timings": \{[\s\S]*?\n {2}\}/, (block) => block.replace(/\d+(\.\d+)?/g, "0"));
}

const answered = () => serve?.stderr().match(/resident: answered/g)?.length ?? 0;

/**
 * How many command lines the resident process answered once its log has been read: it logs each
 * before it replies, so the line is in the pipe when the client ends.
 */
async function answeredNow(): Promise<number> {
  for (let i = 0; i < 5; i++) await new Promise((done) => setImmediate(done));
  await new Promise((done) => setTimeout(done, 20));
  return answered();
}

/** One raw request line to a socket; the lines it answers with. */
function ask(socketPath: string, line: string): Promise<string[]> {
  return new Promise((done, fail) => {
    const socket = connect(socketPath);
    let text = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      text += chunk;
    });
    socket.on("error", fail);
    socket.on("close", () => done(text.split("\n").filter(Boolean)));
    socket.on("connect", () => socket.end(line));
  });
}

/**
 * A copy of a memory root with its private mode: Node 22 and later create the copy's folder with the
 * default mode (Node 20 kept the source's), and the resident leaves a loose root to the CLI.
 */
function copyMemoryRoot(from: string, to: string): void {
  cpSync(from, to, { recursive: true });
  chmodSync(to, 0o700);
}

function buildId(): string {
  for (const file of readdirSync(join(root, "dist", "cli")).filter((f) => /\.c?js$/.test(f))) {
    const found = /cairn-build-[0-9a-f]{16}/.exec(readFileSync(join(root, "dist", "cli", file), "utf8"));
    if (found) return found[0];
  }
  throw new Error("no build id in dist/cli");
}

function request(overrides: Record<string, unknown>): string {
  return `${JSON.stringify({
    build: buildId(),
    home: warm,
    args: ["recall", "dev server port"],
    cwd: dir,
    env: { ...env, CAIRN_HOME: warm },
    stdout: { isTTY: false },
    stderr: { isTTY: false },
    deadline: Date.now() + 60_000,
    ...overrides,
  })}\n`;
}

describe.skipIf(!built)("cairn serve answering the CLI (resident process)", () => {
  beforeAll(async () => {
    dir = tempDir();
    cold = join(dir, "cold");
    warm = join(dir, "warm");
    project = join(dir, "project");
    mkdirSync(project);
    // The "alone" runs must stay alone: no resident started on demand for their memory root.
    env = { PATH: process.env.PATH, HOME: dir, CAIRN_LLM_PROVIDER: "offline", CAIRN_RESIDENT_IDLE_MINUTES: "0" };
    const cairn = new Cairn({ home: cold, env: {} });
    const [old] = await cairn.remember({ content: "The dev server listens on port 3000", scope: "global" });
    const [current] = await cairn.remember({ content: "The dev server listens on port 8080", scope: "global" });
    cairn.memories.supersede(old!.id!, current!.id!);
    await cairn.remember([
      { content: "Tests run with vitest; each test file gets its own temp folder", cwd: project },
      { content: "The project's dev server is started with npm run dev", cwd: project },
      { content: "Release builds are signed on the CI runner, never on a laptop", cwd: dir },
    ]);
    cairn.close();
    copyMemoryRoot(cold, warm);
    serve = await startServe(warm);
  }, 60_000);

  afterAll(async () => {
    await stopServe();
  });

  it("prints what the CLI prints by itself, byte for byte, with the same exit code", async () => {
    const cases: Array<{ args: string[]; cwd?: string }> = [
      { args: ["recall", "dev server port"] },
      { args: ["recall", "dev server port", "--json"] },
      { args: ["recall", "dev server", "--k", "1"] },
      { args: ["recall", "dev server port", "--scope", "global", "--include-superseded"] },
      { args: ["recall", "how are tests run"], cwd: project },
      { args: ["recall", "dev server", "--json", "--include-superseded"], cwd: project },
      { args: ["recall", "dev server", "--k", "0"] },
      { args: ["recall", "x", "--scope"] },
      { args: ["recall"] },
      { args: ["inject", "--cwd", project] },
    ];
    for (const { args, cwd } of cases) {
      const before = await answeredNow();
      const alone = await run(args, cold, cwd);
      const resident = await run(args, warm, cwd);
      expect(await answeredNow(), args.join(" ")).toBe(before + 1);
      expect({ ...resident, stdout: withoutTimings(resident.stdout) }, args.join(" ")).toEqual({
        ...alone,
        stdout: withoutTimings(alone.stdout),
      });
    }
    const invalid = await run(["recall", "dev server", "--k", "0"], warm);
    expect(invalid.status).toBe(1);
    expect(invalid.stderr.trim().split("\n")).toHaveLength(1);
    expect((await run(["recall", "how are tests run"], warm, project)).stdout).toContain("vitest");
    // The inject compared above lists the project's remembered memories (the store is read there too).
    expect((await run(["inject", "--cwd", project], warm)).stdout).toContain("Tests run with vitest");
  });

  it("answers a command line that names its memory root with --home", async () => {
    const before = await answeredNow();
    const resident = await run(["--home", warm, "recall", "signed releases"], warm);
    const alone = await run(["--home", cold, "recall", "signed releases"], cold);
    expect(await answeredNow()).toBe(before + 1);
    expect(resident).toEqual(alone);
  });

  it("sees what another process remembered between two of its answers", async () => {
    const question = ["recall", "nightly staging database rebuild"];
    await run(question, warm);
    for (const home of [cold, warm])
      expect((await run(["remember", "The staging database is rebuilt every night at 02:00"], home)).status).toBe(0);
    const before = await answeredNow();
    const resident = await run(question, warm);
    expect(await answeredNow()).toBe(before + 1);
    expect(resident.stdout).toContain("rebuilt every night at 02:00");
    expect(resident).toEqual(await run(question, cold));
  });

  it("ends quietly with exit code 0 when its reader has gone, as the CLI does", async () => {
    const before = await answeredNow();
    const child = spawn(process.execPath, [bin, "recall", "dev server port"], {
      env: { ...env, CAIRN_HOME: warm },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout.destroy();
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    const code = await new Promise((done) => child.once("close", done));
    expect(await answeredNow()).toBe(before + 1);
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
  });

  it("listens on a socket only its user can open", () => {
    const stat = statSync(join(warm, "cairn.sock"));
    expect(stat.isSocket()).toBe(true);
    expect(stat.mode & 0o777).toBe(0o600);
  });

  it("leaves command lines that write, and help, to the CLI", async () => {
    const before = await answeredNow();
    expect((await run(["recall", "--help"], warm)).status).toBe(0);
    expect((await run(["remember", "The staging database is rebuilt every night"], warm)).status).toBe(0);
    expect(await answeredNow()).toBe(before);
    // The cold root stays the warm one's mirror: later tests compare their answers score for score.
    expect((await run(["remember", "The staging database is rebuilt every night"], cold)).status).toBe(0);
  });

  it("declines another memory root's request, even through its own socket", async () => {
    const socket = join(warm, "cairn.sock");
    const [verdict] = await ask(socket, request({ home: cold, env: { ...env, CAIRN_HOME: cold } }));
    expect(JSON.parse(verdict!)).toMatchObject({ declined: "another memory root" });
    const [named] = await ask(socket, request({ args: ["--home", cold, "recall", "dev server port"] }));
    expect(JSON.parse(named!)).toMatchObject({ declined: "another memory root" });
    const before = await answeredNow();
    await run(["recall", "dev server port"], cold);
    expect(await answeredNow()).toBe(before);
  });

  it("answers a malformed or oversized request with an error and keeps serving", async () => {
    const socket = join(warm, "cairn.sock");
    const [malformed] = await ask(socket, "{not json\n");
    expect(JSON.parse(malformed!)).toMatchObject({ declined: "malformed request" });
    const [wrongShape] = await ask(socket, `${JSON.stringify({ args: "recall" })}\n`);
    expect(JSON.parse(wrongShape!)).toMatchObject({ declined: "malformed request" });
    const [oversized] = await ask(socket, request({ args: ["recall", "x".repeat(1024 * 1024 + 1)] }));
    expect(JSON.parse(oversized!).declined).toMatch(/^request over/);
    const [late] = await ask(socket, request({ deadline: Date.now() - 1 }));
    expect(JSON.parse(late!)).toMatchObject({ declined: "the client stopped waiting" });
    const [verdict, answer] = await ask(socket, request({}));
    expect(JSON.parse(verdict!)).toMatchObject({ accepted: true });
    expect(JSON.parse(answer!)).toMatchObject({ exitCode: 0, stdout: expect.stringContaining("port 8080") });
  });

  it("declines a client whose config would differ: another config file or environment override", async () => {
    const socket = join(warm, "cairn.sock");
    const [invalid] = await ask(
      socket,
      request({ env: { ...env, CAIRN_HOME: warm, CAIRN_MEMORIES_ENABLED: "not-a-boolean" } }),
    );
    expect(JSON.parse(invalid!).declined).toMatch(/configuration does not load/);
    const [proxied] = await ask(
      socket,
      request({ env: { ...env, CAIRN_HOME: warm, HTTPS_PROXY: "http://127.0.0.1:9" } }),
    );
    expect(JSON.parse(proxied!).declined).toMatch(/HTTPS_PROXY differs/);
  });

  it("answers with a config file changed since it started, as the CLI reads it", async () => {
    for (const home of [cold, warm])
      writeFileSync(join(home, "config.yaml"), "recall:\n  defaultK: 1\n  maxK: 2\n", { mode: 0o600 });
    try {
      for (const args of [
        ["recall", "dev server"],
        ["recall", "dev server", "--k", "3"],
      ]) {
        const before = await answeredNow();
        const alone = await run(args, cold);
        const resident = await run(args, warm);
        expect(await answeredNow()).toBe(before + 1);
        expect(resident).toEqual(alone);
      }
      expect((await run(["recall", "dev server"], warm)).stdout.match(/^\d\.\d\d {2}#/gm)).toHaveLength(1);
      expect((await run(["recall", "dev server", "--k", "3"], warm)).stderr).toMatch(/recall\.maxK/);
      // A config file others can read: the CLI tightens it and says so, so it is left to the CLI.
      for (const home of [cold, warm]) chmodSync(join(home, "config.yaml"), 0o644);
      const before = await answeredNow();
      const alone = await run(["recall", "dev server"], cold);
      const resident = await run(["recall", "dev server"], warm);
      expect(await answeredNow()).toBe(before);
      expect(resident.stderr).toMatch(/made the memory root readable by you only/);
      expect(resident.stderr.replace(warm, cold)).toBe(alone.stderr);
      expect(resident.stdout).toBe(alone.stdout);
    } finally {
      for (const home of [cold, warm]) rmSync(join(home, "config.yaml"));
    }
  });

  it("is not trusted when it is another build: the CLI runs the command itself", async () => {
    await stopServe();
    const fake = join(dir, "fake");
    copyMemoryRoot(cold, fake);
    let asked = 0;
    const server = createServer((socket) => {
      asked += 1;
      socket.on("error", () => socket.destroy());
      socket.end(
        `${JSON.stringify({ build: "cairn-build-0123456789abcdef", accepted: true })}\n${JSON.stringify({ exitCode: 0, stdout: "from another build\n", stderr: "" })}\n`,
      );
    });
    await new Promise<void>((done) => server.listen(join(fake, "cairn.sock"), done));
    try {
      const answer = await run(["recall", "signed releases"], fake);
      expect(asked).toBe(1);
      expect(answer).toEqual(await run(["recall", "signed releases"], cold));
    } finally {
      server.close();
    }
  });

  it("falls back on a socket left by a crashed process, and a new process replaces it", async () => {
    serve = await startServe(warm);
    await stopServe("SIGKILL");
    expect(existsSync(join(warm, "cairn.sock"))).toBe(true);
    const args = ["recall", "dev server port", "--include-superseded"];
    expect(await run(args, warm)).toEqual(await run(args, cold));

    serve = await startServe(warm);
    const before = await answeredNow();
    expect(await run(args, warm)).toEqual(await run(args, cold));
    expect(await answeredNow()).toBe(before + 1);
  });

  it("removes its socket when it stops", async () => {
    await stopServe("SIGTERM");
    expect(existsSync(join(warm, "cairn.sock"))).toBe(false);
  });
});
