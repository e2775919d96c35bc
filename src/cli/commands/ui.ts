import { spawn } from "node:child_process";
import type { Command } from "commander";
import { CairnError } from "../../util/errors.js";
import type { GlobalOptions } from "../context.js";
import { wholeNumber } from "../flags.js";
import { printLine } from "../output.js";

export function registerUi(program: Command): void {
  program
    .command("ui")
    .description(
      "the memory browser: opens a page of 'cairn serve' on 127.0.0.1 (started here when none runs) to read, search, review and forget memories",
    )
    .option("--port <port>", "port of the server (default: server.port, 7077)", wholeNumber("--port", 0, 65_535))
    .option("--no-open", "print the address only; open no browser")
    .action(async (options: { port?: number; open: boolean }, command: Command) => {
      const global = command.optsWithGlobals<GlobalOptions>();
      const { Cairn } = await import("../../cairn.js");
      const cairn = new Cairn(global.home ? { home: global.home } : {});
      const { server } = cairn.config;
      cairn.close();
      const port = options.port ?? server.port;
      const token = server.token || undefined;
      // Loopback always: a server bound to every interface answers there too.
      let base = port === 0 ? undefined : await runningServer(`http://127.0.0.1:${port}`);
      const started = base === undefined;
      if (base === undefined) {
        const { startServing } = await import("./serve.js");
        base = await startServing(global, { host: "127.0.0.1", port, schedule: true });
      }
      const url = await pageUrl(base, token);
      printLine(url);
      if (started) process.stderr.write("cairn ui: serving the page until Ctrl-C\n");
      if (options.open) openBrowser(url);
    });
}

/** The base URL when a cairn server answers there, else undefined. */
async function runningServer(base: string): Promise<string | undefined> {
  try {
    const response = await fetch(`${base}/health`, { signal: AbortSignal.timeout(1500) });
    const body = (await response.json()) as { ok?: unknown };
    return response.ok && body.ok === true ? base : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The address to open. With a token, a one-time code the page exchanges for an HttpOnly session cookie
 * (src/server/uiAccess.ts): the token itself never appears in a URL, a browser history or a log.
 */
async function pageUrl(base: string, token: string | undefined): Promise<string> {
  if (!token) return `${base}/ui/`;
  const response = await fetch(`${base}/api/ui/code`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: "{}",
  });
  const body = (await response.json().catch(() => ({}))) as { code?: string | null; error?: string };
  if (!response.ok || !body.code) {
    throw new CairnError(
      "ui_unavailable",
      `the server at ${base} refused a sign-in code (${body.error ?? `HTTP ${response.status}`}): is it running with another server.token? Restart it or run 'cairn ui --port <another port>'`,
    );
  }
  return `${base}/ui/login?code=${encodeURIComponent(body.code)}`;
}

/** Best effort: the address is printed in any case. */
function openBrowser(url: string): void {
  const [file, args] =
    process.platform === "darwin"
      ? ["open", [url]]
      : process.platform === "win32"
        ? ["cmd", ["/c", "start", "", url]]
        : ["xdg-open", [url]];
  try {
    const child = spawn(file, args as string[], { detached: true, stdio: "ignore" });
    child.on("error", () => {});
    child.unref();
  } catch {
    // No opener on this machine: the printed address is enough.
  }
}
