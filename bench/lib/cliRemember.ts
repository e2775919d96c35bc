import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { GeneratedMemory } from "./codingMemories.js";
import { type JoinedPair, type LifecycleAccuracy, lifecycleAccuracy, updates } from "./lifecycleAccuracy.js";

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
  /** Supersessions and flags scored against the generator's truth (which cairn never sees). */
  accuracy: LifecycleAccuracy;
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
    // Only what a user would write: the truth stays on this side.
    const lines = items.map(({ content, occurredAt }) => JSON.stringify({ content, occurredAt }));
    writeFileSync(file, `${lines.join("\n")}\n`);
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
      id?: number;
      superseded?: Array<{ id: number }>;
      flagged?: Array<{ flag: number; with: number }>;
    }>;
    const cpu = JSON.parse(readFileSync(cpuFile, "utf8")) as { user: number; system: number };
    const cpuSeconds = (cpu.user + cpu.system) / 1e6;
    // A flag names two memories of the batch, so both outcomes carry it: count each once.
    const flags = new Set(outcomes.flatMap((o) => (o.flagged ?? []).map((f) => f.flag)));
    const { superseded, flagged } = joinedPairs(outcomes);
    const accuracy = lifecycleAccuracy(items, superseded, flagged);
    showWrong(items, superseded, flagged);
    return {
      memories: items.length,
      created: outcomes.filter((o) => o.status === "created").length,
      superseded: outcomes.reduce((sum, o) => sum + (o.superseded?.length ?? 0), 0),
      flagged: flags.size,
      seconds: Math.round(seconds * 100) / 100,
      memoriesPerSecond: Math.round(items.length / seconds),
      cpuSeconds: Math.round(cpuSeconds * 100) / 100,
      memoriesPerCpuSecond: Math.round(items.length / cpuSeconds),
      accuracy,
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** The supersessions and flags of a run as pairs of input lines (outcomes come back in input order). */
function joinedPairs(
  outcomes: Array<{
    status: string;
    id?: number;
    superseded?: Array<{ id: number }>;
    flagged?: Array<{ flag: number; with: number }>;
  }>,
): { superseded: JoinedPair[]; flagged: JoinedPair[] } {
  const line = new Map<number, number>();
  outcomes.forEach((o, i) => {
    if (o.status === "created" && o.id !== undefined) line.set(o.id, i);
  });
  const superseded: JoinedPair[] = [];
  const flags = new Map<number, JoinedPair>();
  outcomes.forEach((o, i) => {
    for (const s of o.superseded ?? []) {
      const older = line.get(s.id);
      if (older !== undefined) superseded.push({ older, newer: i });
    }
    for (const f of o.flagged ?? []) {
      const other = line.get(f.with);
      if (other !== undefined && !flags.has(f.flag))
        flags.set(f.flag, { older: Math.min(i, other), newer: Math.max(i, other) });
    }
  });
  return { superseded, flagged: [...flags.values()] };
}

/** CAIRN_BENCH_SHOW_WRONG=<n> prints up to n wrong supersessions and flags, to read what the rules joined. */
function showWrong(items: GeneratedMemory[], superseded: JoinedPair[], flagged: JoinedPair[]): void {
  const limit = Number(process.env.CAIRN_BENCH_SHOW_WRONG ?? 0);
  if (!(limit > 0)) return;
  for (const [kind, pairs] of [
    ["superseded", superseded],
    ["flagged", flagged],
  ] as const) {
    const wrong = pairs.filter((p) => !updates(items[p.newer]!.truth, items[p.older]!.truth)).slice(0, limit);
    for (const p of wrong) console.error(`wrong ${kind}: ${items[p.older]!.content}  ->  ${items[p.newer]!.content}`);
  }
}
