import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { installConnector, uninstallConnector } from "../../src/connectors/applyConnector.js";
import { ompConnector, piConnector } from "../../src/connectors/piConnector.js";
import type { InstallContext } from "../../src/connectors/types.js";
import { cliArgs, type TempHome, tempHome, writeSummary } from "../server/tempHome.js";

// A pi agent folder as pi writes it (settings.json keys from pi-mono packages/coding-agent/docs/settings.md,
// an extension from its examples/extensions/hello.ts); `.txt` keeps the extension out of this project's tsc.
const FIXTURE = join(import.meta.dirname, "..", "fixtures", "pi-agent");

let temp: TempHome;
let context: InstallContext;
let piDir: string;
const options = () => ({ stateDir: join(temp.home, "connectors"), now: () => new Date("2026-05-01T10:00:00Z") });
const read = (file: string) => readFileSync(file, "utf8");

/** Every file under `dir` with its bytes, so a test can say "nothing else changed". */
function snapshot(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) {
      const path = join(entry.parentPath, entry.name);
      files[path.slice(dir.length + 1)] = read(path);
    }
  }
  return files;
}

function copyFixture(to: string): void {
  cpSync(FIXTURE, to, { recursive: true });
  cpSync(join(to, "extensions", "hello.ts.txt"), join(to, "extensions", "hello.ts"));
}

beforeEach(() => {
  temp = tempHome();
  context = { invocation: { command: "/opt/node/bin/node", args: ["/opt/cairn/dist/cli/main.cjs"] }, env: temp.env };
  piDir = join(temp.root, ".pi", "agent");
});

afterEach(() => {
  const extensions = join(piDir, "extensions");
  if (existsSync(extensions)) chmodSync(extensions, 0o755);
  temp.cleanup();
});

describe("cairn install pi", () => {
  it("adds extensions/cairn.ts and nothing else, idempotently; uninstall leaves the folder as it was", () => {
    copyFixture(piDir);
    const before = snapshot(piDir);
    const file = join(piDir, "extensions", "cairn.ts");

    expect(installConnector(piConnector, context, options()).map((c) => c.action)).toEqual(["created"]);
    const source = read(file);
    expect(source.startsWith("// cairn memory extension: added by 'cairn install pi'")).toBe(true);
    expect(source).toContain('const NODE = "/opt/node/bin/node";');
    expect(source).toContain('const CAIRN = ["/opt/cairn/dist/cli/main.cjs"];');
    const { "extensions/cairn.ts": _ours, ...others } = snapshot(piDir);
    expect(others).toEqual(before);

    expect(installConnector(piConnector, context, options()).map((c) => c.action)).toEqual(["unchanged"]);
    expect(read(file)).toBe(source);

    expect(uninstallConnector(piConnector, context, options()).map((c) => c.action)).toEqual(["deleted"]);
    expect(snapshot(piDir)).toEqual(before);
  });

  it("replaces an older cairn extension with a backup, and follows PI_CODING_AGENT_DIR", () => {
    const dir = join(temp.root, "custom-pi");
    const env = { ...temp.env, PI_CODING_AGENT_DIR: dir };
    const file = join(dir, "extensions", "cairn.ts");
    const older =
      "// cairn memory extension: added by 'cairn install pi' (an older version)\nexport default () => {};\n";
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, older);
    const [change] = installConnector(piConnector, { ...context, env }, options());
    expect(change?.action).toBe("updated");
    expect(change?.backup && read(change.backup)).toBe(older);
    expect(read(file)).toContain("cairn_recall");
    expect(existsSync(join(piDir, "extensions", "cairn.ts"))).toBe(false);
  });

  it("uninstall without an install record still removes cairn's file, and only cairn's", () => {
    installConnector(piConnector, context, options());
    const file = join(piDir, "extensions", "cairn.ts");
    const mine = join(piDir, "extensions", "mine.ts");
    writeFileSync(mine, "// cairn memory extension, mine\n");
    rmSync(join(temp.home, "connectors"), { recursive: true });
    const [change] = uninstallConnector(piConnector, context, options());
    expect(change?.action).toBe("deleted");
    expect(existsSync(file)).toBe(false);
    expect(read(mine)).toBe("// cairn memory extension, mine\n");
  });

  it("refuses a cairn.ts of the user's, and a read-only one, with one line and no change", () => {
    const file = join(piDir, "extensions", "cairn.ts");
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, "export default function mine() {}\n");
    expect(() => installConnector(piConnector, context, options())).toThrow(
      `${file} exists and was not written by cairn, so cairn changed nothing; rename it and run 'cairn install pi' again`,
    );
    expect(read(file)).toBe("export default function mine() {}\n");
    expect(uninstallConnector(piConnector, context, options()).map((c) => c.action)).toEqual(["unchanged"]);
    expect(read(file)).toBe("export default function mine() {}\n");

    const older = "// cairn memory extension: an older one\n";
    writeFileSync(file, older);
    chmodSync(file, 0o444);
    expect(() => installConnector(piConnector, context, options())).toThrow(
      /cairn\.ts is read-only \(mode 0444\), so cairn changed nothing; make it writable \(chmod u\+w .*\) and run 'cairn install pi' again$/,
    );
    expect(read(file)).toBe(older);
  });
});

describe("cairn install omp", () => {
  it("writes into oh-my-pi's folder when it exists, and refuses to create it", () => {
    const ompDir = join(temp.root, ".omp", "agent");
    expect(() => installConnector(ompConnector, context, options())).toThrow(
      `${ompDir} does not exist, so cairn changed nothing: run omp once to create it, or, if omp uses ~/.pi/agent, run 'cairn install pi'`,
    );
    expect(existsSync(join(temp.root, ".omp"))).toBe(false);

    copyFixture(ompDir);
    const before = snapshot(ompDir);
    expect(installConnector(ompConnector, context, options()).map((c) => c.action)).toEqual(["created"]);
    expect(read(join(ompDir, "extensions", "cairn.ts"))).toContain("added by 'cairn install omp'");
    // The hook is told which agent starts, so omp's block is fitted to omp's budget.
    expect(read(join(ompDir, "extensions", "cairn.ts"))).toContain('"session-start", "--agent", "omp"');
    expect(uninstallConnector(ompConnector, context, options()).map((c) => c.action)).toEqual(["deleted"]);
    expect(snapshot(ompDir)).toEqual(before);
  });
});

describe("the pi extension", () => {
  type Handler = (event: Record<string, unknown>, ctx: { cwd: string }) => Promise<unknown>;
  interface Tool {
    name: string;
    parameters: { required: string[] };
    execute(
      id: string,
      params: Record<string, unknown>,
      signal: unknown,
      onUpdate: unknown,
      ctx: unknown,
    ): Promise<unknown>;
  }

  /** Loads the installed extension into a stand-in for pi's ExtensionAPI, with a cairn that echoes its call. */
  async function loadExtension(cairnScript: string | "real") {
    const script = join(temp.root, "fake-cairn.mjs");
    if (cairnScript !== "real") writeFileSync(script, cairnScript);
    const invocation =
      cairnScript === "real"
        ? { command: process.execPath, args: [...cliArgs(), "--home", temp.home] }
        : { command: process.execPath, args: [script] };
    installConnector(piConnector, { invocation, env: temp.env }, options());
    // The file is plain JavaScript: loaded as a module the way pi's loader runs it.
    const module = join(temp.root, "cairn-extension.mjs");
    cpSync(join(piDir, "extensions", "cairn.ts"), module);
    const handlers: Record<string, Handler> = {};
    const tools: Record<string, Tool> = {};
    const api = {
      on: (event: string, handler: Handler) => {
        handlers[event] = handler;
      },
      registerTool: (tool: Tool) => {
        tools[tool.name] = tool;
      },
    };
    const extension = (await import(`${pathToFileURL(module).href}?${Math.random()}`)) as {
      default: (pi: typeof api) => void;
    };
    extension.default(api);
    return { handlers, tools };
  }

  // Reads stdin to its end first, as cairn's hook does: the extension must close it, or every start waits.
  const echo = `process.stdin.resume();
process.stdin.on("end", () => process.stdout.write(JSON.stringify({ args: process.argv.slice(2), cwd: process.cwd() })));
`;

  it("loads the memory block at session start and adds it to each prompt's system prompt", async () => {
    const { handlers } = await loadExtension(echo);
    const ctx = { cwd: temp.project };
    expect(await handlers.before_agent_start?.({ systemPrompt: "BASE" }, ctx)).toBeUndefined();
    await handlers.session_start?.({}, ctx);
    const answer = (await handlers.before_agent_start?.({ systemPrompt: "BASE" }, ctx)) as { systemPrompt: string };
    const [base, block] = answer.systemPrompt.split("\n\n");
    expect(base).toBe("BASE");
    expect(JSON.parse(block ?? "")).toEqual({
      args: ["hook", "session-start", "--agent", "pi", "--cwd", temp.project],
      cwd: temp.project,
    });
    expect(handlers.session_switch).toBeTypeOf("function");
  });

  it("writes checkpoints before a compaction and at shutdown, and reloads the block after a compaction", async () => {
    const log = join(temp.root, "calls.jsonl");
    // Logs each call with what it read on stdin, and answers session-start with the input it was given.
    const logging = `import { appendFileSync } from "node:fs";
let input = "";
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", () => {
  const args = process.argv.slice(2);
  appendFileSync(${JSON.stringify(log)}, JSON.stringify({ args, input }) + "\\n");
  if (args[1] === "session-start") process.stdout.write("BLOCK " + (input || "none"));
});
`;
    const { handlers } = await loadExtension(logging);
    const sessionFile = join(temp.root, "sessions", "s1.jsonl");
    const ctx = { cwd: temp.project, sessionManager: { getSessionFile: () => sessionFile, getSessionId: () => "s1" } };
    const session = { session_id: "s1", transcript_path: sessionFile, cwd: temp.project };
    await handlers.session_start?.({}, ctx);
    expect(await handlers.session_before_compact?.({ reason: "manual" }, ctx)).toBeUndefined();
    await handlers.session_compact?.({}, ctx);
    const answer = (await handlers.before_agent_start?.({ systemPrompt: "BASE" }, ctx)) as { systemPrompt: string };
    await handlers.session_shutdown?.({}, ctx);
    const calls = read(log)
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { args: string[]; input: string });
    expect(calls.map((call) => call.args.slice(0, 2).join(" "))).toEqual([
      "hook session-start",
      "hook pre-compact",
      "hook session-start",
      "hook session-end",
    ]);
    expect(calls[0]?.input).toBe("");
    expect(JSON.parse(calls[1]?.input ?? "")).toEqual(session);
    expect(calls[1]?.args).toEqual(["hook", "pre-compact", "--agent", "pi"]);
    expect(JSON.parse(calls[2]?.input ?? "")).toEqual({ ...session, source: "compact" });
    expect(JSON.parse(calls[3]?.input ?? "")).toEqual(session);
    expect(answer.systemPrompt).toContain('"source":"compact"');
  });

  it("cairn_recall and cairn_read run cairn in the session's folder; a failure is a tool error", async () => {
    const { tools } = await loadExtension(echo);
    const ctx = { cwd: temp.project };
    const recall = (await tools.cairn_recall?.execute(
      "1",
      { query: "-why", k: 3, scope: "global" },
      undefined,
      undefined,
      ctx,
    )) as {
      content: { text: string }[];
    };
    expect(JSON.parse(recall.content[0]?.text ?? "")).toEqual({
      args: ["recall", "--k", "3", "--scope", "global", "--", "-why"],
      cwd: temp.project,
    });
    const readResult = (await tools.cairn_read?.execute("2", { url: "memory://root" }, undefined, undefined, ctx)) as {
      content: { text: string }[];
    };
    expect(JSON.parse(readResult.content[0]?.text ?? "").args).toEqual(["read", "--", "memory://root"]);
    expect(tools.cairn_recall?.parameters.required).toEqual(["query"]);

    const failing = await loadExtension(`process.stderr.write("cairn: no store here\\n"); process.exit(1);\n`);
    await expect(failing.tools.cairn_recall?.execute("3", { query: "x" }, undefined, undefined, ctx)).rejects.toThrow(
      /^cairn: no store here$/,
    );
    // A hook that fails leaves the prompt alone.
    await failing.handlers.session_start?.({}, ctx);
    expect(await failing.handlers.before_agent_start?.({ systemPrompt: "BASE" }, ctx)).toBeUndefined();
  });

  it("with the real cairn, a session in the project gets its memory summary in the system prompt", async () => {
    writeFileSync(
      join(temp.home, "config.yaml"),
      `${read(join(temp.home, "config.yaml"))}memories:\n  enabled: true\n`,
    );
    writeSummary(temp.home, { cwd: temp.project }, "- Releases are tagged from main.");
    // The extension passes pi's environment on: a fake home, and no background run from this test.
    vi.stubEnv("HOME", temp.root);
    vi.stubEnv("CLAUDE_CODE_ENTRYPOINT", "sdk-test");
    try {
      const { handlers } = await loadExtension("real");
      await handlers.session_start?.({}, { cwd: temp.project });
      const answer = (await handlers.before_agent_start?.({ systemPrompt: "BASE" }, { cwd: temp.project })) as {
        systemPrompt: string;
      };
      expect(answer.systemPrompt.startsWith("BASE\n\n")).toBe(true);
      expect(answer.systemPrompt).toContain("- Releases are tagged from main.");
    } finally {
      vi.unstubAllEnvs();
    }
  }, 30_000);
});
