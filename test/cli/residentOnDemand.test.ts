import { spawn } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Cairn } from "../../src/cairn.js";
import { markDamaged } from "../../src/store/storeFault.js";
import { tempDir } from "../helpers/tempDir.js";
import { finished } from "../helpers/timedSpawn.js";

// A resident process cairn starts by itself (src/cli/resident/startOnDemand.ts, residentLifetime.ts):
// the built CLI's recall, run in its own process, starts one when none listens; the next recall is
// answered by it as the CLI answers alone; it ends after resident.idleMinutes without a command line,
// when its memory root is removed, and when `cairn serve` takes the socket; 0 and CAIRN_RESIDENT=off
// start none.

const root = join(import.meta.dirname, "..", "..");
const bin = join(
  root,
  (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { bin: { cairn: string } }).bin.cairn,
);
const built = existsSync(bin);
if (!built) console.warn(`resident-on-demand suite skipped: ${bin} is missing (run npm run build)`);

interface Root {
  dir: string;
  home: string;
  project: string;
  env: NodeJS.ProcessEnv;
}

async function memoryRoot(idleMinutes: string): Promise<Root> {
  const dir = tempDir();
  const home = join(dir, "home");
  const project = join(dir, "project");
  mkdirSync(project);
  const cairn = new Cairn({ home, env: {} });
  await cairn.remember([
    { content: "The dev server listens on port 8080", scope: "global" },
    { content: "Tests run with vitest; each test file gets its own temp folder", cwd: project },
  ]);
  cairn.close();
  const env = {
    PATH: process.env.PATH,
    HOME: dir,
    CAIRN_HOME: home,
    CAIRN_LLM_PROVIDER: "offline",
    CAIRN_RESIDENT_IDLE_MINUTES: idleMinutes,
    // The resident process logs each answer to <home>/background.log, and the CLI says what it started.
    CAIRN_DEBUG: "1",
  };
  return { dir, home, project, env };
}

function run(at: Root, args: string[], env: NodeJS.ProcessEnv = at.env) {
  return finished(spawn(process.execPath, [bin, ...args], { env, cwd: at.project }));
}

const log = (at: Root) =>
  existsSync(join(at.home, "background.log")) ? readFileSync(join(at.home, "background.log"), "utf8") : "";
const socketAt = (at: Root) => {
  try {
    return lstatSync(join(at.home, "cairn.sock")).isSocket();
  } catch {
    return false;
  }
};
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until(what: string, test: () => boolean, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!test()) {
    if (Date.now() > end) throw new Error(`waited ${ms} ms for ${what}`);
    await new Promise((done) => setTimeout(done, 50));
  }
}

/** The pid of the resident process that answers for `at`, once it listens. */
async function residentPid(at: Root): Promise<number> {
  await until("the resident process to listen", () => socketAt(at) && /resident: pid \d+/.test(log(at)));
  return Number([...log(at).matchAll(/resident: pid (\d+)/g)].at(-1)![1]);
}

describe.skipIf(!built)("a resident process started on demand", () => {
  it("starts after a recall, answers the next one as the CLI would, and ends when idle", async () => {
    const at = await memoryRoot("0.1");
    const alone = await run(at, ["recall", "dev server port"]);
    expect(alone.status, alone.stderr).toBe(0);
    expect(alone.stderr).toMatch(/cairn: resident process: started \(pid \d+\)/);
    const pid = await residentPid(at);
    const answered = await run(at, ["recall", "dev server port"]);
    expect(answered.status).toBe(0);
    expect(answered.stdout).toBe(alone.stdout);
    expect(answered.stdout).toContain("port 8080");
    // Answered there: the resident logged it, and this client started nothing.
    expect(log(at)).toMatch(/resident: answered with exit code 0/);
    expect(answered.stderr).toBe("");
    const inject = await run(at, ["inject"]);
    expect(inject.stdout).toContain("Tests run with vitest");
    // doctor says what answers, in words and in JSON.
    const doctor = await run(at, ["doctor"]);
    expect(doctor.stdout).toContain(`resident      answering recall and inject on ${join(at.home, "cairn.sock")}`);
    const report = JSON.parse((await run(at, ["doctor", "--json"])).stdout) as { resident: unknown };
    expect(report.resident).toEqual({
      socket: join(at.home, "cairn.sock"),
      listening: true,
      idleMinutes: 0.1,
      off: false,
    });
    // 0.1 minutes: six seconds without a command line (room for the two doctor runs above).
    await until("the idle resident to end", () => !alive(pid));
    expect(socketAt(at)).toBe(false);
    expect((await run(at, ["doctor"], { ...at.env, CAIRN_RESIDENT: "off" })).stdout).toContain(
      "resident      off (CAIRN_RESIDENT=off)",
    );
    expect(log(at)).toMatch(/resident: ending: no command line for 6 s \(resident\.idleMinutes\)/);
  });

  it("starts none when resident.idleMinutes is 0 or CAIRN_RESIDENT is off", async () => {
    const at = await memoryRoot("0");
    const zero = await run(at, ["recall", "dev server port"]);
    expect(zero.status).toBe(0);
    expect(zero.stderr).toContain("cairn: resident process: resident.idleMinutes is 0");
    expect((await run(at, ["doctor"])).stdout).toContain("resident      none running; none is started");
    const off = await run(at, ["recall", "dev server port"], {
      ...at.env,
      CAIRN_RESIDENT_IDLE_MINUTES: "10",
      CAIRN_RESIDENT: "off",
    });
    expect(off.stdout).toBe(zero.stdout);
    await new Promise((done) => setTimeout(done, 1500));
    expect(socketAt(at)).toBe(false);
    expect(log(at)).not.toContain("resident:");
  });

  it("starts none for a config that warns, whose warning the command prints once", async () => {
    const at = await memoryRoot("10");
    writeFileSync(join(at.home, "config.yaml"), "recall:\n  feedback: true\n", { mode: 0o600 });
    const result = await run(at, ["recall", "dev server port"]);
    expect(result.status).toBe(0);
    expect(result.stderr.match(/recall\.feedback/g)).toHaveLength(1);
    expect(result.stderr).toContain("cairn: resident process: the configuration warns");
    expect(socketAt(at)).toBe(false);
  });

  it("starts none after a command line that failed", async () => {
    const at = await memoryRoot("10");
    const result = await run(at, ["recall", "dev server port", "--k", "0"]);
    expect(result.status).toBe(1);
    expect(result.stderr).not.toContain("resident process");
    await new Promise((done) => setTimeout(done, 1500));
    expect(socketAt(at)).toBe(false);
  });

  it("ends when resident.idleMinutes is set to 0 while it runs", async () => {
    const at = await memoryRoot("10");
    // The setting in the file, so that the resident's own environment does not override it.
    const env = { ...at.env };
    delete env.CAIRN_RESIDENT_IDLE_MINUTES;
    await run(at, ["recall", "dev server port"], env);
    const pid = await residentPid(at);
    const set = await run(at, ["config", "set", "resident.idleMinutes", "0"], env);
    expect(set.status, set.stderr).toBe(0);
    await until("the resident to end", () => !alive(pid));
    expect(log(at)).toContain("resident: ending: resident.idleMinutes is 0 now");
  });

  it("ends when its memory root is removed, without making it again", async () => {
    const at = await memoryRoot("10");
    await run(at, ["recall", "dev server port"]);
    const pid = await residentPid(at);
    rmSync(at.home, { recursive: true, force: true });
    await until("the resident of a removed memory root to end", () => !alive(pid));
    expect(existsSync(at.home)).toBe(false);
  });

  it("started after its memory root was removed (a test or a script that cleans up at once), makes nothing", async () => {
    const at = await memoryRoot("10");
    const gone = join(at.dir, "removed", ".cairn");
    const resident = await run(at, ["--home", gone, "hook", "resident", "--idle-minutes", "1"]);
    expect(resident.status).toBe(0);
    expect(existsSync(join(at.dir, "removed"))).toBe(false);
  });

  it("ends when cairn doctor --repair needs the store to itself", async () => {
    const at = await memoryRoot("10");
    await run(at, ["recall", "dev server port"]);
    const pid = await residentPid(at);
    markDamaged(join(at.home, "cairn.db"), "marked by a test");
    const repaired = await run(at, ["doctor", "--repair"]);
    expect(repaired.status, repaired.stderr).toBe(0);
    expect(repaired.stdout).toMatch(/fresh store at/);
    expect(log(at)).toContain("resident: ending: asked to stop by another cairn command");
    await until("the resident to end", () => !alive(pid));
  });

  it("gives the socket to cairn serve", async () => {
    const at = await memoryRoot("10");
    await run(at, ["recall", "dev server port"]);
    const pid = await residentPid(at);
    const serve = spawn(process.execPath, [bin, "serve", "--no-schedule", "--port", "0"], {
      env: at.env,
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    serve.stderr!.setEncoding("utf8");
    serve.stderr!.on("data", (chunk: string) => {
      stderr += chunk;
    });
    const exited = new Promise((done) => serve.once("exit", done));
    try {
      await until("cairn serve to answer on the socket", () => stderr.includes("resident: answering"));
      await until("the resident started on demand to end", () => !alive(pid));
      expect(log(at)).toContain("resident: ending: asked to stop by another cairn command");
      // serve's own resident answers now, and declines to be stopped the same way.
      const answered = await run(at, ["recall", "dev server port"]);
      expect(answered.stdout).toContain("port 8080");
      expect(answered.stderr).toBe("");
    } finally {
      serve.kill("SIGTERM");
      await exited;
    }
  });
});
