import { appendFileSync, cpSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Cairn } from "../../src/cairn.js";
import type { SourceAgent } from "../../src/sources/registry.js";
import { runCli } from "../helpers/runCli.js";
import { makeChaosHome } from "./support/home.js";

const FIXTURES = join(import.meta.dirname, "..", "fixtures");

/** Each agent's fixture folder and where its adapter expects that folder as a root. */
const LAYOUT: Array<{ agent: SourceAgent; from: string; to: string }> = [
  { agent: "codex", from: "codex", to: "codex/sessions/2026/03/04" },
  { agent: "claude-code", from: "claude-code", to: "claude-code" },
  { agent: "gemini", from: "gemini/dot-gemini", to: "gemini" },
  { agent: "pi", from: "pi", to: "pi" },
  { agent: "omp", from: "omp", to: "omp" },
  { agent: "opencode", from: "opencode", to: "opencode" },
];
const ROOT_OF: Record<SourceAgent, string> = {
  codex: "codex",
  "claude-code": "claude-code",
  gemini: "gemini",
  pi: "pi",
  omp: "omp",
  opencode: "opencode",
};

type Mutation = (text: Buffer, seed: number) => Buffer;

const lines = (text: Buffer) => text.toString("latin1").split("\n");
const join_ = (parts: string[]) => Buffer.from(parts.join("\n"), "latin1");

/** Deterministic pseudo-random numbers, so a failure names the same bytes next time. */
function rng(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state = (state * 1_103_515_245 + 12_345) >>> 0;
    return state / 2 ** 32;
  };
}

const MUTATIONS: Record<string, Mutation> = {
  truncatedLines: (text, seed) => {
    const random = rng(seed);
    return join_(
      lines(text).map((line) => (random() < 0.4 ? line.slice(0, Math.floor(line.length * random())) : line)),
    );
  },
  invalidUtf8: (text, seed) => {
    const random = rng(seed);
    const bytes = Buffer.from(text);
    for (let i = 0; i < bytes.length; i += 1) if (random() < 0.01) bytes[i] = [0xff, 0xfe, 0xc3, 0x80][i % 4]!;
    return bytes;
  },
  wrongTypes: (text) =>
    Buffer.from(
      text
        .toString("utf8")
        .replace(/"(text|content|message|role|type|timestamp|cwd|id)":"[^"]*"/g, (_m, key: string) => `"${key}":12345`)
        .replace(/"(content|parts|payload)":\[/g, (_m, key: string) => `"${key}":{"0":[`),
    ),
  binaryJunk: (text, seed) => {
    const random = rng(seed);
    const junk = Buffer.from(Array.from({ length: 4096 }, () => Math.floor(random() * 256)));
    return Buffer.concat([
      text.subarray(0, Math.floor(text.length / 2)),
      junk,
      text.subarray(Math.floor(text.length / 2)),
    ]);
  },
  deepNesting: (text) => Buffer.concat([text, Buffer.from(`${"[".repeat(100_000)}${"]".repeat(100_000)}\n`), text]),
  emptyAndWhitespace: () => Buffer.from("\n\n   \n\t\n"),
};

/** Copies every fixture into a fresh tree, mutating each transcript file (.jsonl / .json). */
function mutatedTree(dir: string, mutation: Mutation): Partial<Record<SourceAgent, string[]>> {
  let seed = 1;
  for (const { from, to } of LAYOUT) {
    cpSync(join(FIXTURES, from), join(dir, to), { recursive: true });
    for (const file of walk(join(dir, to))) {
      if (!/\.jsonl?$/.test(file)) continue;
      seed += 7;
      writeFileSync(file, mutation(readFileSync(file), seed));
    }
  }
  return Object.fromEntries(Object.entries(ROOT_OF).map(([agent, root]) => [agent, [join(dir, root)]]));
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

describe("hostile transcripts never crash a scan; problems are counted per file", () => {
  it("mutated copies of every fixture format", async () => {
    const results: string[] = [];
    let totalFiles = 0;
    let totalProblems = 0;
    for (const [name, mutation] of Object.entries(MUTATIONS)) {
      const home = makeChaosHome(`fuzz-${name}`);
      const overrides = mutatedTree(join(home.root, "src"), mutation);
      const cairn = new Cairn({ home: home.home, env: { HOME: home.userHome } });
      try {
        const report = await cairn.scan({ overrides });
        const problems = report.files.reduce((sum, file) => sum + file.problems.length, 0);
        const withProblems = report.files.filter((file) => file.problems.length > 0).length;
        totalFiles += report.files.length;
        totalProblems += problems;
        results.push(`${name}: ${report.files.length} files, ${problems} problems in ${withProblems} files`);
        if (name !== "emptyAndWhitespace") expect(problems, name).toBeGreaterThan(0);
        for (const file of report.files) {
          for (const problem of file.problems) expect(typeof problem.reason).toBe("string");
        }
      } finally {
        cairn.close();
      }
    }
    console.log(
      `[chaos:fuzz] ${totalFiles} mutated files scanned, 0 crashes, ${totalProblems} problems counted; ${results.join("; ")}`,
    );
  });

  it("a 20 MB line, and files that change or vanish while being read", async () => {
    const home = makeChaosHome("fuzz-live");
    const overrides = mutatedTree(join(home.root, "src"), (text) => text);
    const codexDir = join(home.root, "src", "codex", "sessions", "2026", "03", "04");
    const huge = join(codexDir, "rollout-2026-03-04T11-00-00-0199c0de-9999-7000-8000-000000000001.jsonl");
    writeFileSync(
      huge,
      `${JSON.stringify({ timestamp: "2026-03-04T11:00:00.000Z", type: "session_meta", payload: { id: "0199c0de-9999-7000-8000-000000000001", timestamp: "2026-03-04T11:00:00.000Z", cwd: "/srv/huge", source: "cli" } })}\n` +
        `{"timestamp":"2026-03-04T11:00:01.000Z","type":"event_msg","payload":{"type":"user_message","message":"${"x".repeat(20 * 1024 * 1024)}"}}\n`,
    );
    const victims = walk(join(home.root, "src")).filter((file) => /\.jsonl$/.test(file) && file !== huge);
    const cairn = new Cairn({ home: home.home, env: { HOME: home.userHome } });
    let vanished = 0;
    let grown = 0;
    try {
      const report = await cairn.scan({
        overrides,
        // After each file, make the next ones vanish or grow mid-scan.
        onFile: (_file, done) => {
          const victim = victims[done];
          if (!victim) return;
          if (done % 2 === 0) {
            rmSync(victim, { force: true });
            vanished += 1;
          } else {
            appendFileSync(victim, '{"half a line without an end');
            grown += 1;
          }
        },
      });
      const hugeReport = report.files.find((file) => file.path === huge);
      console.log(
        `[chaos:fuzz-live] ${report.files.length} files, 20 MB line: ${hugeReport?.status} (${hugeReport?.problems.length ?? 0} problems), ${vanished} vanished and ${grown} grew mid-scan, ${report.totals.problems} problems counted, 0 crashes`,
      );
      expect(report.files.length).toBeGreaterThan(0);
      expect(statSync(huge).size).toBeGreaterThan(20 * 1024 * 1024);
    } finally {
      cairn.close();
    }
  });

  it("through the real CLI: scan --json exits 0 and names each damaged file", () => {
    const home = makeChaosHome("fuzz-cli");
    const overrides = mutatedTree(join(home.root, "src"), MUTATIONS.binaryJunk!);
    mkdirSync(home.home, { recursive: true });
    const args = [
      "scan",
      "--json",
      ...Object.entries(overrides).flatMap(([agent, roots]) => ["--source", `${agent}=${roots?.[0]}`]),
    ];
    const result = runCli(args, { env: { CAIRN_HOME: home.home, HOME: home.userHome } });
    expect(result.status, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as { files: Array<{ path: string; problems: unknown[] }> };
    const damaged = report.files.filter((file) => file.problems.length > 0);
    console.log(
      `[chaos:fuzz-cli] cairn scan --json over binary junk: exit 0, ${report.files.length} files, ${damaged.length} with counted problems`,
    );
    expect(damaged.length).toBeGreaterThan(0);
  });
});
