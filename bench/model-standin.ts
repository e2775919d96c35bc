/**
 * The model path without a model: the session-quality evaluator (../shared/bench/session-quality) runs
 * the built CLI against a local OpenAI-compatible server that replays answers written ahead (by a person
 * reading the prompts, or by a model run elsewhere). A request with no answer is saved in the pending
 * folder and refused with HTTP 503; write its answer as `<answers>/<hash>.json` and run again until
 * nothing is pending (a long session's windows and consolidation come one run after another, since each
 * carries what the one before it answered).
 *
 *   npm run bench:standin -- [--answers DIR] [--pending DIR] [--log FILE] [--data DIR] [--project DIR]
 *                            [--session TEXT ...] [--set key=value ...] [--items] [--keep] [--dump FILE]
 *
 * --answers (default ../standin/answers beside the checkout), --pending (../standin/pending) and --log
 * (../standin/requests.jsonl) keep the answers out of the repository. --project runs another built
 * checkout (default this one: a copy of a commit keeps the prompts fixed while this one changes). Every other option goes to the
 * evaluator as given. Exits 2 while requests are pending.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { type CallKind, type ReplayRequest, startReplayServer } from "./lib/replayServer.js";
import { optionValue, sessionQualityData } from "./lib/sessionQualityData.js";

const ROOT = join(import.meta.dirname, "..");
const STANDIN = join(ROOT, "..", "standin");

function runEvaluator(command: string[]): Promise<{ status: number; stdout: string }> {
  return new Promise((resolvePromise, reject) => {
    // Asynchronous: the replay server answers on this process's event loop while the evaluator runs.
    const child = spawn(process.execPath, command, { stdio: ["ignore", "pipe", "inherit"] });
    let stdout = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      stdout += chunk;
      process.stdout.write(chunk);
    });
    child.once("error", reject);
    child.once("close", (code) => resolvePromise({ status: code ?? 1, stdout }));
  });
}

const LABELS: Record<CallKind, string> = {
  stage1: "stage 1 windows",
  consolidation: "consolidation",
  structural: "structural classification",
  decisions: "fact decisions",
  other: "other",
};

/** What the stage-1 answers served in this run said, per session: the last window's answer is the memory. */
interface FactCount {
  session: string;
  windows: number;
  facts: number;
  below: number;
  threshold: number;
}

function stage1Facts(requests: readonly ReplayRequest[], pendingDir: string, answersDir: string): FactCount[] {
  const bySession = new Map<string, FactCount>();
  for (const request of requests.filter((r) => r.kind === "stage1")) {
    const system = request.messages.find((m) => m.role === "system")?.content ?? "";
    const prompt = request.messages.find((m) => m.role === "user")?.content ?? "";
    const session = /^Session (\S+) \(/m.exec(prompt)?.[1] ?? "?";
    const threshold = Number(/Only facts at ([\d.]+) or above/.exec(system)?.[1] ?? Number.NaN);
    const count = bySession.get(session) ?? { session, windows: 0, facts: 0, below: 0, threshold };
    const [, of] = (request.window ?? "1 of 1").split(" of ");
    count.windows = Number(of);
    const file = join(request.answered ? answersDir : pendingDir, `${request.hash}.json`);
    const last = request.window === null || request.window.split(" of ")[0] === of;
    if (request.answered && last && existsSync(file)) {
      const answer = JSON.parse(readFileSync(file, "utf8")) as { facts?: Array<{ confidence?: number }> };
      count.facts = answer.facts?.length ?? 0;
      count.below = (answer.facts ?? []).filter((f) => (f.confidence ?? 0) < threshold).length;
    }
    bySession.set(session, count);
  }
  return [...bySession.values()];
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const shared = resolve(optionValue(args, "--data") ?? join(ROOT, "..", "shared"));
  const project = resolve(optionValue(args, "--project") ?? ROOT);
  const answersDir = resolve(optionValue(args, "--answers") ?? join(STANDIN, "answers"));
  const pendingDir = resolve(optionValue(args, "--pending") ?? join(STANDIN, "pending"));
  const logFile = resolve(optionValue(args, "--log") ?? join(STANDIN, "requests.jsonl"));
  if (["--provider", "--base-url", "--model"].some((flag) => args.includes(flag))) {
    throw new Error("--provider, --base-url and --model are set by the stand-in; leave them out");
  }
  const { evaluator, split, transcripts, missing } = sessionQualityData(shared);
  if (missing) {
    console.log(
      `bench:standin skipped: ${missing} is absent (pass --data DIR, the folder holding bench/ and fixtures/)`,
    );
    return 0;
  }
  if (!existsSync(join(project, "dist", "cli", "main.cjs"))) {
    console.error(`bench:standin: the CLI of ${project} is not built; run \`npm run build\` there first`);
    return 1;
  }
  mkdirSync(answersDir, { recursive: true });
  mkdirSync(dirname(logFile), { recursive: true });
  // The pending folder lists what this run still needs; answers already written stay where they are.
  mkdirSync(pendingDir, { recursive: true });
  for (const name of readdirSync(pendingDir).filter((n) => /^[0-9a-f]{64}\.json$/.test(n))) {
    rmSync(join(pendingDir, name));
  }
  const server = await startReplayServer({ answersDir, pendingDir, logFile });
  let status: number;
  try {
    const run = await runEvaluator([
      evaluator,
      project,
      split,
      transcripts,
      "--provider",
      "openai",
      "--base-url",
      server.baseUrl,
      "--model",
      "standin",
      ...args,
    ]);
    status = run.status;
  } finally {
    await server.close();
  }
  const requests = server.requests;
  console.log("");
  console.log(`stand-in model: ${requests.length} requests (log: ${logFile})`);
  for (const kind of Object.keys(LABELS) as CallKind[]) {
    const ofKind = requests.filter((r) => r.kind === kind);
    if (ofKind.length === 0) continue;
    const answered = ofKind.filter((r) => r.answered).length;
    console.log(
      `  ${LABELS[kind].padEnd(26)} ${String(answered).padStart(4)} answered ${String(ofKind.length - answered).padStart(4)} pending`,
    );
  }
  for (const count of stage1Facts(requests, pendingDir, answersDir)) {
    console.log(
      `  session ${count.session}: ${count.windows} window(s); the last answer holds ${count.facts} fact(s), ${count.below} under ${count.threshold}`,
    );
  }
  const pending = requests.filter((r) => !r.answered);
  if (pending.length > 0) {
    console.log(
      `${pending.length} request(s) pending: read ${pendingDir}/<hash>.json and write ${answersDir}/<hash>.json`,
    );
    for (const r of pending) console.log(`  ${r.hash} ${LABELS[r.kind]}${r.window ? ` (part ${r.window})` : ""}`);
    return 2;
  }
  return status;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(`bench:standin: ${(error as Error).message}`);
    process.exitCode = 1;
  },
);
