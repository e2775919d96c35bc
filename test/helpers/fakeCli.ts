import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/** What the fake executable does when it runs. */
export type FakeCliBehaviour =
  /** Prints `stdout` / `stderr`, writes `lastMessage` to the file after --output-last-message (codex), exits. */
  | { kind: "answer"; stdout?: string; stderr?: string; lastMessage?: string; exitCode?: number }
  /** Prints and exits with a non-zero code. */
  | { kind: "exit"; exitCode: number; stderr?: string; stdout?: string }
  /** Never exits on its own; with ignoreSigterm only SIGKILL stops it. */
  | { kind: "hang"; ignoreSigterm?: boolean };

/** One run of the fake, as it recorded itself. */
export interface FakeCliCall {
  argv: string[];
  stdin: string;
  cwd: string;
  pid: number;
  /** The value of CAIRN_INTERNAL in the child's environment. */
  internal: string | null;
  /** The content of the file after --output-schema, read while it still existed. */
  outputSchema: string | null;
}

export interface FakeCli {
  /** The directory holding the executable; put first on PATH (see `env`). */
  dir: string;
  /** The executable's full path. */
  file: string;
  /** process.env with `dir` first on PATH, for the provider under test. */
  env: NodeJS.ProcessEnv;
  setBehaviour(behaviour: FakeCliBehaviour): void;
  calls(): FakeCliCall[];
  /** Process ids of every run, recorded as the script starts (before it reads stdin). */
  pids(): number[];
  /** Removes the directory (and with it every fake installed into it). */
  cleanup(): void;
}

/**
 * Writes an executable fake agent CLI (`claude`, `codex`, ...) into a temp dir. It is a Node script
 * run by this same Node binary; it records its argv, stdin and cwd to a file, then behaves as told.
 * Behaviour is read from a file on every run, so one fake can answer differently per test.
 * POSIX only: Windows cannot run an extensionless script from PATH.
 */
export function installFakeCli(name: string, behaviour: FakeCliBehaviour, options: { dir?: string } = {}): FakeCli {
  const dir = options.dir ?? mkdtempSync(path.join(os.tmpdir(), "cairn-fakecli-"));
  const file = path.join(dir, name);
  const behaviourFile = path.join(dir, `${name}.behaviour.json`);
  const callsFile = path.join(dir, `${name}.calls.jsonl`);
  const pidsFile = path.join(dir, `${name}.pids`);
  writeFileSync(file, fakeScript({ behaviourFile, callsFile, pidsFile }));
  chmodSync(file, 0o755);
  const setBehaviour = (next: FakeCliBehaviour) => writeFileSync(behaviourFile, JSON.stringify(next));
  setBehaviour(behaviour);
  return {
    dir,
    file,
    env: { ...process.env, PATH: [dir, process.env.PATH ?? ""].join(path.delimiter) },
    setBehaviour,
    calls: () => readLines(callsFile).map((line) => JSON.parse(line) as FakeCliCall),
    pids: () => readLines(pidsFile).map(Number),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

function readLines(file: string): string[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line !== "");
}

function fakeScript(files: { behaviourFile: string; callsFile: string; pidsFile: string }): string {
  // CommonJS on purpose: an extensionless script outside a package is loaded as CommonJS.
  return `#!${process.execPath}
const fs = require("node:fs");
fs.appendFileSync(${JSON.stringify(files.pidsFile)}, process.pid + "\\n");
const behaviour = JSON.parse(fs.readFileSync(${JSON.stringify(files.behaviourFile)}, "utf8"));
if (behaviour.kind === "hang" && behaviour.ignoreSigterm) process.on("SIGTERM", () => {});
const argv = process.argv.slice(2);
const after = (flag) => { const i = argv.indexOf(flag); return i >= 0 ? argv[i + 1] : undefined; };
let stdin = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => { stdin += chunk; });
process.stdin.on("end", () => {
  const schemaFile = after("--output-schema");
  const call = {
    argv, stdin, cwd: process.cwd(), pid: process.pid,
    internal: process.env.CAIRN_INTERNAL ?? null,
    outputSchema: schemaFile && fs.existsSync(schemaFile) ? fs.readFileSync(schemaFile, "utf8") : null,
  };
  fs.appendFileSync(${JSON.stringify(files.callsFile)}, JSON.stringify(call) + "\\n");
  if (behaviour.kind === "hang") {
    setInterval(() => {}, 1000);
    return;
  }
  const lastMessageFile = after("--output-last-message");
  if (lastMessageFile && behaviour.lastMessage !== undefined) fs.writeFileSync(lastMessageFile, behaviour.lastMessage);
  if (behaviour.stdout) process.stdout.write(behaviour.stdout);
  if (behaviour.stderr) process.stderr.write(behaviour.stderr);
  process.exitCode = behaviour.exitCode ?? 0;
});
`;
}
