// Memory bench (extraction of one large session): a synthetic Claude Code session of 3,000 lines of
// about 100 KB each (300 MB: user prose, assistant answers, Write and Bash calls, long tool outputs),
// imported by the built CLI (`cairn scan`), then extracted by `cairn run`, once offline and once through
// an OpenAI-compatible fake provider on 127.0.0.1. Each command runs in its own process; the bench
// prints its peak RSS (the child's own `process.resourceUsage().maxRSS`, from a preloaded module) and
// its wall time. The scan and the run are separate processes so that the run's peak is extraction's
// (its own rescan finds nothing new), not the import's. Everything is written under the temporary
// folder and removed at the end.
// Run: npm run bench:extract-memory [-- --lines 3000 --kb 100 --mode both|offline|llm --cli <main.cjs> --old-space <MB> --fresh-run]
import { spawn } from "node:child_process";
import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { stringify } from "yaml";
import { startFakeProvider } from "../test/chaos/support/fakeProvider.js";
import { mulberry32, SyntheticCorpus } from "./lib/syntheticCorpus.js";

const { values } = parseArgs({
  options: {
    lines: { type: "string", default: "3000" },
    kb: { type: "string", default: "100" },
    mode: { type: "string", default: "both" },
    /** Another build's CLI (`dist/cli/main.cjs` of another checkout), to compare before and after. */
    cli: { type: "string" },
    /** Caps V8's old space of `cairn run` (MB): what extraction retains, apart from what V8 collects late. */
    "old-space": { type: "string" },
    /** One `cairn run` on the fresh store (import and extraction in one process), as a first run is. */
    "fresh-run": { type: "boolean" },
  },
});
const LINES = Number(values.lines);
const LINE_BYTES = Number(values.kb) * 1024;
const CWD = "/srv/bench/extract-memory";
const SESSION = "0199e1a0-0000-4000-8000-00000000e001";
const MAIN = values.cli ?? join(import.meta.dirname, "..", "dist", "cli", "main.cjs");

/** Prose of about `bytes` bytes: sentences of pseudo-words, now and then a stated rule or a path. */
function prose(corpus: SyntheticCorpus, random: () => number, bytes: number): string {
  const parts: string[] = [];
  let size = 0;
  while (size < bytes) {
    const words = Array.from({ length: 8 + Math.floor(random() * 14) }, () => corpus.word());
    const sentence =
      random() < 0.02
        ? `Always run the ${words[0]} suite before pushing ${words[1]}.`
        : `${words.join(" ")} in src/${words[0]}/${words[1]}.ts.`;
    parts.push(sentence);
    size += sentence.length + 1;
  }
  return parts.join(random() < 0.1 ? "\n" : " ");
}

/** A build log of about `bytes` bytes ending in a verdict. */
function log(random: () => number, bytes: number, failed: boolean): string {
  const lines: string[] = [];
  let size = 0;
  for (let n = 0; size < bytes; n++) {
    const line = `[${n}] compiling module-${Math.floor(random() * 500)} ... ok (${Math.floor(random() * 900)} ms)`;
    lines.push(line);
    size += line.length + 1;
  }
  lines.push(failed ? "Error: 3 tests failed" : "All tests passed");
  return lines.join("\n");
}

/** Writes the session as Claude Code does: one JSON object a line, chained by parentUuid. */
function writeSession(root: string): string {
  const dir = join(root, "claude", "projects", CWD.replace(/[^a-zA-Z0-9]/g, "-"));
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${SESSION}.jsonl`);
  const fd = openSync(path, "w");
  const corpus = new SyntheticCorpus(7, 20_000, 1);
  const random = mulberry32(11);
  const start = Date.now() - 3 * 86_400_000;
  const base = { isSidechain: false, userType: "external", cwd: CWD, sessionId: SESSION, version: "2.1.39" };
  let parent: string | null = null;
  for (let n = 1; n <= LINES; n++) {
    const uuid = `00000000-0000-4000-8000-${n.toString(16).padStart(12, "0")}`;
    const call = `toolu_${Math.floor((n - 1) / 5)}`;
    const body = LINE_BYTES - 600;
    // Five kinds of line in turn: a request, a Write call, its result, a Bash call, its (long) output.
    const kind = (n - 1) % 5;
    const message =
      kind === 0
        ? { role: "user", content: prose(corpus, random, body) }
        : kind === 1
          ? assistant(n, [
              { type: "text", text: prose(corpus, random, body / 2) },
              {
                type: "tool_use",
                id: call,
                name: "Write",
                input: { file_path: `${CWD}/src/module-${n % 40}.ts`, content: prose(corpus, random, body / 2) },
              },
            ])
          : kind === 2 || kind === 4
            ? {
                role: "user",
                content: [
                  {
                    type: "tool_result",
                    tool_use_id: kind === 2 ? call : `${call}b`,
                    content: log(random, body, n % 20 === 0),
                    is_error: false,
                  },
                ],
              }
            : assistant(n, [
                { type: "text", text: prose(corpus, random, body) },
                { type: "tool_use", id: `${call}b`, name: "Bash", input: { command: "npm test" } },
              ]);
    const line = JSON.stringify({
      ...base,
      parentUuid: parent,
      type: message.role,
      message,
      uuid,
      timestamp: new Date(start + n * 1000).toISOString(),
    });
    writeSync(fd, `${line}\n`);
    parent = uuid;
  }
  closeSync(fd);
  return path;
}

function assistant(n: number, content: unknown[]) {
  return { role: "assistant", model: "claude-opus-4-6", id: `msg_${n}`, type: "message", content };
}

/**
 * Runs the built CLI in its own process; returns its peak RSS (MB), wall time (s) and output. Not
 * spawnSync: the fake provider answers from this process's event loop.
 */
async function cli(
  root: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ peakMb: number; seconds: number; out: string }> {
  const rssFile = join(root, "rss.json");
  const preload = join(root, "rss.cjs");
  writeFileSync(
    preload,
    `process.on("exit", () => require("node:fs").writeFileSync(${JSON.stringify(rssFile)}, String(process.resourceUsage().maxRSS)));\n`,
  );
  const started = performance.now();
  const cap = values["old-space"] && args[0] === "run" ? [`--max-old-space-size=${values["old-space"]}`] : [];
  const child = spawn(process.execPath, [...cap, "--require", preload, MAIN, ...args], { env });
  let out = "";
  let err = "";
  child.stdout.on("data", (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    err += chunk.toString();
  });
  const status = await new Promise<number | null>((resolve) => child.on("close", resolve));
  const seconds = (performance.now() - started) / 1000;
  if (status !== 0) throw new Error(`cairn ${args.join(" ")} failed (${status}): ${err}`);
  const peakMb = Math.round(Number(readFileSync(rssFile, "utf8")) / 1024);
  return { peakMb, seconds: Math.round(seconds * 10) / 10, out };
}

async function measure(root: string, mode: "offline" | "llm") {
  const home = join(root, `cairn-${mode}`);
  const userHome = join(root, "user");
  const empty = join(root, "empty");
  for (const dir of [home, userHome, empty]) mkdirSync(dir, { recursive: true });
  const config = {
    memories: { enabled: true, maxRolloutAgeDays: 3650, minRolloutIdleHours: 0 },
    collection: { idleHours: 0 },
    sources: {
      "claude-code": [join(root, "claude")],
      codex: [empty],
      pi: [empty],
      omp: [empty],
      gemini: [empty],
      opencode: [empty],
    },
  };
  writeFileSync(join(home, "config.yaml"), stringify(config));
  const provider = mode === "llm" ? await startFakeProvider() : undefined;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: userHome,
    CAIRN_HOME: home,
    NO_COLOR: "1",
    ...(provider
      ? {
          CAIRN_LLM_PROVIDER: "openai",
          CAIRN_LLM_BASE_URL: provider.baseUrl,
          CAIRN_LLM_MODEL: "fake-model",
          CAIRN_LLM_API_KEY: "sk-test-not-a-secret",
        }
      : { CAIRN_LLM_PROVIDER: "offline" }),
  };
  try {
    const scan = values["fresh-run"] ? { peakMb: 0, seconds: 0 } : await cli(root, ["scan"], env);
    const run = await cli(root, ["run"], env);
    const extracted = /extracted with [^\n]*/.exec(run.out)?.[0] ?? run.out.trim().split("\n")[0];
    const calls = provider ? [...provider.log.stage1Calls.values()].reduce((sum, n) => sum + n, 0) : undefined;
    return { mode, scan, run: { peakMb: run.peakMb, seconds: run.seconds }, extracted, stage1Calls: calls };
  } finally {
    await provider?.close();
    rmSync(home, { recursive: true, force: true });
  }
}

const root = mkdtempSync(join(tmpdir(), "cairn-bench-extract-"));
try {
  const path = writeSession(root);
  const sizeMb = Math.round(statSync(path).size / 1048576);
  console.log(`session: ${LINES} lines, ${sizeMb} MB`);
  const modes = values.mode === "both" ? (["offline", "llm"] as const) : [values.mode as "offline" | "llm"];
  for (const mode of modes) {
    const result = await measure(root, mode);
    console.log(
      `${mode}: scan ${result.scan.peakMb} MB peak, ${result.scan.seconds} s; run ${result.run.peakMb} MB peak, ` +
        `${result.run.seconds} s (${result.extracted}${result.stage1Calls === undefined ? "" : `; ${result.stage1Calls} stage-1 call(s)`})`,
    );
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
