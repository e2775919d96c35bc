import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { copyFileSync, mkdirSync, readdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../../helpers/tempDir.js";

const ROOT = join(import.meta.dirname, "..", "..", "..");
/** The same package aliases as the package's bundle (scripts/bundleAliases.mjs). */
const { bundleAliases } = (await import(join(ROOT, "scripts", "bundleAliases.mjs"))) as {
  bundleAliases: Record<string, string>;
};

/**
 * The real CLI source bundled once with esbuild (the bundler tsx itself uses) into a temp folder laid out
 * like the package (prompts, package.json, node_modules), so a child starts in ~0.4 s instead of ~2 s
 * through tsx: that is what makes 100+ kill cycles fit in two minutes on two cores. Same code, no hooks.
 */
export function bundleCli(): string {
  const dir = tempDir("cairn-chaos-cli-");
  const cliDir = join(dir, "dist", "cli");
  mkdirSync(cliDir, { recursive: true });
  mkdirSync(join(dir, "prompts"));
  const main = join(cliDir, "main.mjs");
  const bundle = (entry: string, outfile: string) =>
    execFileSync(
      join(ROOT, "node_modules", ".bin", "esbuild"),
      [
        entry,
        "--bundle",
        "--platform=node",
        "--format=esm",
        "--target=node20",
        `--outfile=${outfile}`,
        "--external:better-sqlite3",
        "--external:sqlite-vec",
        "--external:@huggingface/*",
        "--log-level=error",
        ...Object.entries(bundleAliases).map(([name, path]) => `--alias:${name}=${path}`),
        // Bundled CommonJS dependencies call require(); ESM output has none unless we create it.
        "--banner:js=import{createRequire as __cairnRequire}from'node:module';const require=__cairnRequire(import.meta.url);",
      ],
      { stdio: "pipe" },
    );
  bundle(join(ROOT, "src", "cli", "main.ts"), main);
  // The import lanes' worker, where the bundled scanner looks for it: large scans run in lanes here too.
  bundle(join(ROOT, "src", "collection", "importWorker.ts"), join(cliDir, "importWorker.js"));
  // Prompt templates are read relative to the module that loads them (now the bundle).
  for (const name of readdirSync(join(ROOT, "src", "prompts"))) {
    if (!name.endsWith(".md")) continue;
    copyFileSync(join(ROOT, "src", "prompts", name), join(cliDir, name));
    copyFileSync(join(ROOT, "src", "prompts", name), join(dir, "prompts", name));
  }
  // So are the concept lexicon and the word vectors (the agent profile's default embedding).
  copyFileSync(join(ROOT, "src", "text", "lexicon", "concepts.txt"), join(cliDir, "concepts.txt"));
  copyFileSync(join(ROOT, "src", "providers", "embeddings", "wordvec", "wordvec.bin"), join(cliDir, "wordvec.bin"));
  copyFileSync(join(ROOT, "package.json"), join(dir, "package.json"));
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
  return main;
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
}

export interface Spawned {
  child: ChildProcess;
  exited: Promise<Exit>;
}

/** Starts the bundled CLI; the promise settles when the process is gone (however it ended). */
export function spawnCli(main: string, args: string[], env: NodeJS.ProcessEnv): Spawned {
  const started = Date.now();
  const child = spawn(process.execPath, [main, ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    stdout += chunk.toString("utf8");
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  const exited = new Promise<Exit>((resolve) => {
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr, ms: Date.now() - started }));
  });
  return { child, exited };
}

/** Runs the bundled CLI to the end (bounded by `timeoutMs`, after which it is killed). */
export async function runBundled(main: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs = 60_000) {
  const spawned = spawnCli(main, args, env);
  const timer = setTimeout(() => spawned.child.kill("SIGKILL"), timeoutMs);
  try {
    return await spawned.exited;
  } finally {
    clearTimeout(timer);
  }
}
