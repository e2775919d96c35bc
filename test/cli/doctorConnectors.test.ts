import { mkdirSync, readFileSync, symlinkSync } from "node:fs";
import { delimiter, join, resolve } from "node:path";
import { afterEach, expect, it } from "vitest";
import { installConnector } from "../../src/connectors/applyConnector.js";
import { claudeCodeConnector } from "../../src/connectors/claudeCodeConnector.js";
import { runCli } from "../helpers/runCli.js";
import { type TempHome, tempHome } from "../server/tempHome.js";

let temp: TempHome | undefined;
afterEach(() => temp?.cleanup());

it("doctor checks each connected agent: the node its entries name still runs, or the line says how to mend it", {
  timeout: 120_000,
}, () => {
  temp = tempHome();
  // node reached through a link on PATH, as Homebrew's /opt/homebrew/bin/node is: install names the link.
  const bin = join(temp.root, "bin");
  mkdirSync(bin);
  symlinkSync(process.execPath, join(bin, "node"));
  const env = { ...temp.env, PATH: [bin, temp.env.PATH].join(delimiter) };
  expect(runCli(["install", "gemini"], { env }).status).toBe(0);
  const settings = JSON.parse(readFileSync(join(temp.root, ".gemini-home", ".gemini", "settings.json"), "utf8"));
  expect(settings.mcpServers.cairn.command).toBe(join(bin, "node"));
  expect(settings.hooks.SessionStart[0].hooks[0].command).toMatch(new RegExp(`^${join(bin, "node")} `));

  // Claude Code installed from a Node.js that has been removed since (nvm uninstall).
  const gone = join(temp.root, ".nvm", "versions", "node", "v22.14.0", "bin", "node");
  const script = resolve("src", "cli", "main.ts");
  installConnector(
    claudeCodeConnector,
    { invocation: { command: gone, args: [script] }, env: temp.env },
    { stateDir: join(temp.home, "connectors") },
  );

  const doctor = runCli(["doctor"], { env });
  expect(doctor.status).toBe(0);
  expect(doctor.stdout).toContain("\nconnectors\n");
  expect(doctor.stdout).toContain(
    `\n  claude-code  broken: ${gone} no longer exists; run 'cairn install claude-code' again\n`,
  );
  expect(doctor.stdout).toMatch(
    new RegExp(`\\n  gemini {7}ok: ${join(bin, "node")} \\(${process.version}\\) runs \\S+main\\.ts\\n`),
  );
  const json = JSON.parse(runCli(["doctor", "--json"], { env }).stdout);
  expect(json.connectors.map((check: { agent: string }) => check.agent)).toEqual(["claude-code", "gemini"]);
});
