import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { GeneratedMemory } from "./codingMemories.js";

export interface CliRememberResult {
  memories: number;
  created: number;
  superseded: number;
  flagged: number;
  seconds: number;
  memoriesPerSecond: number;
  /** CPU seconds the command used (all threads): what it costs whatever else the machine runs. */
  cpuSeconds: number;
  memoriesPerCpuSecond: number;
}

/**
 * `cairn remember --file items.jsonl --json` as a user runs it: the built CLI (`npm run build` first) in
 * its own process, offline defaults (lifecycle on: every memory gets its revise job), a fresh memory
 * root and HOME in a temporary folder, run from a project folder of its own. The time is the whole
 * command, start-up included. CAIRN_BENCH_PROFILE=<dir> writes a CPU profile of the command there.
 */
export function cliRemember(items: GeneratedMemory[]): CliRememberResult {
  const root = mkdtempSync(join(tmpdir(), "cairn-remember-"));
  try {
    const home = join(root, "cairn");
    const userHome = join(root, "home");
    const project = join(root, "project");
    for (const dir of [home, userHome, project]) mkdirSync(dir);
    const file = join(root, "items.jsonl");
    writeFileSync(file, `${items.map((item) => JSON.stringify(item)).join("\n")}\n`);
    const main = join(import.meta.dirname, "..", "..", "dist", "cli", "main.cjs");
    const profile = process.env.CAIRN_BENCH_PROFILE;
    // A clean environment: no provider key or CAIRN_* setting of the caller reaches the run.
    const cpuFile = join(root, "cpu.json");
    const env = {
      PATH: process.env.PATH ?? "",
      HOME: userHome,
      CAIRN_HOME: home,
      CAIRN_LLM_PROVIDER: "offline",
      CAIRN_BENCH_CPU_FILE: cpuFile,
    };
    const started = performance.now();
    const child = spawnSync(
      process.execPath,
      [
        ...(profile ? ["--cpu-prof", `--cpu-prof-dir=${profile}`] : []),
        "--require",
        join(import.meta.dirname, "cpuOnExit.cjs"),
        main,
        "remember",
        "--file",
        file,
        "--json",
      ],
      { cwd: project, env, encoding: "utf8", maxBuffer: 1 << 30 },
    );
    const seconds = (performance.now() - started) / 1000;
    if (child.status !== 0) throw new Error(`cairn remember --file failed: ${child.stderr}`);
    const outcomes = JSON.parse(child.stdout) as Array<{
      status: string;
      superseded?: unknown[];
      flagged?: Array<{ flag: number }>;
    }>;
    const cpu = JSON.parse(readFileSync(cpuFile, "utf8")) as { user: number; system: number };
    const cpuSeconds = (cpu.user + cpu.system) / 1e6;
    // A flag names two memories of the batch, so both outcomes carry it: count each once.
    const flags = new Set(outcomes.flatMap((o) => (o.flagged ?? []).map((f) => f.flag)));
    return {
      memories: items.length,
      created: outcomes.filter((o) => o.status === "created").length,
      superseded: outcomes.reduce((sum, o) => sum + (o.superseded?.length ?? 0), 0),
      flagged: flags.size,
      seconds: Math.round(seconds * 100) / 100,
      memoriesPerSecond: Math.round(items.length / seconds),
      cpuSeconds: Math.round(cpuSeconds * 100) / 100,
      memoriesPerCpuSecond: Math.round(items.length / cpuSeconds),
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
