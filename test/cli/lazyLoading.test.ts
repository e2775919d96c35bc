import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { namedCommand } from "../../src/cli/namedCommand.js";
import { tempDir } from "../helpers/tempDir.js";
import { spawnSyncTimed } from "../helpers/timedSpawn.js";

const MAIN = join(import.meta.dirname, "..", "..", "src", "cli", "main.ts");

/**
 * An --import module that prints, at exit, every module URL the process loaded (ESM through a load
 * hook, CommonJS through require, native addons through process.dlopen).
 */
const RECORDER = `
import { register } from "node:module";
import Module from "node:module";
import { MessageChannel } from "node:worker_threads";
const { port1, port2 } = new MessageChannel();
const loaded = new Set();
port1.on("message", (url) => loaded.add(url));
port1.unref();
register("data:text/javascript," + encodeURIComponent(
  "let port; export function initialize(data) { port = data.port; }" +
  "export async function load(url, context, next) { port.postMessage(url); return next(url, context); }"
), import.meta.url, { data: { port: port2 }, transferList: [port2] });
const compile = Module.prototype._compile;
Module.prototype._compile = function (content, filename) { loaded.add(filename); return compile.call(this, content, filename); };
const dlopen = process.dlopen;
process.dlopen = function (module, filename, ...rest) { loaded.add(filename); return dlopen.call(this, module, filename, ...rest); };
process.on("exit", () => process.stderr.write("LOADED " + JSON.stringify([...loaded]) + "\\n"));
`;

function loadedBy(args: string[]): string[] {
  const dir = tempDir("cairn-lazy-");
  const recorder = join(dir, "recorder.mjs");
  writeFileSync(recorder, RECORDER);
  const result = spawnSyncTimed(process.execPath, ["--import", "tsx", "--import", recorder, MAIN, ...args], {
    encoding: "utf8",
    env: { ...process.env, CAIRN_HOME: join(dir, "home"), CAIRN_LLM_PROVIDER: "offline" },
  });
  expect(result.status, result.stderr).toBe(0);
  const line = result.stderr.split("\n").find((l) => l.startsWith("LOADED "));
  return JSON.parse(line!.slice("LOADED ".length)) as string[];
}

describe("what a command loads", () => {
  it("finds the command an argument list names after the root options", () => {
    expect(namedCommand(["recall", "x"])).toBe("recall");
    expect(namedCommand(["--home", "/tmp/h", "inject"])).toBe("inject");
    expect(namedCommand(["--home=/tmp/h", "mcp"])).toBe("mcp");
    expect(namedCommand(["--help"])).toBeUndefined();
    expect(namedCommand(["-V"])).toBeUndefined();
    expect(namedCommand([])).toBeUndefined();
  });

  it("recall loads neither the other commands nor the MCP SDK, the tokenizer, the progress bars or the HTTP server", () => {
    const loaded = loadedBy(["recall", "which database does billing use"]);
    expect(loaded.some((url) => url.includes("/cli/commands/recall."))).toBe(true);
    const unwanted = [
      "/cli/commands/run.",
      "/cli/commands/mcp.",
      "/cli/commands/serve.",
      "@modelcontextprotocol",
      "gpt-tokenizer",
      "cli-progress",
      "/hono/",
      "@hono",
      "/yaml/",
    ];
    expect(loaded.filter((url) => unwanted.some((part) => url.includes(part)))).toEqual([]);
  });

  it("inject without a store loads neither SQLite's native module nor the store", () => {
    const loaded = loadedBy(["inject", "--cwd", tempDir("cairn-lazy-cwd-")]);
    expect(loaded.some((url) => url.includes("/read/injectFor."))).toBe(true);
    const unwanted = [".node", "sqlite-vec", "/store/storage.", "/store/connection.", "/read/readOnlyRemembered."];
    expect(loaded.filter((url) => unwanted.some((part) => url.includes(part)))).toEqual([]);
  });
});
