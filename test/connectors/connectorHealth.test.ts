import { chmodSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { installConnector } from "../../src/connectors/applyConnector.js";
import { checkConnectors, MINIMUM_NODE } from "../../src/connectors/connectorHealth.js";
import { connectorFor } from "../../src/connectors/connectors.js";
import { useConnectorHome, writeConfig as write } from "../helpers/connectorFiles.js";

const home = useConnectorHome();

/** Installs `agent` as a cairn run by `command` from `entry` would have. */
function installWith(agent: string, invocation: { command: string; args: string[] }): void {
  installConnector(connectorFor(agent), { ...home.context, invocation }, home.options());
}

/** A cairn script that exists, where a package would keep it. */
function entry(): string {
  const file = join(home.temp.root, "lib", "cairn-memory", "dist", "cli", "main.cjs");
  write(file, "");
  return file;
}

it("holds the minimum Node.js equal to package.json's engines", () => {
  const manifest = JSON.parse(readFileSync(join(import.meta.dirname, "..", "..", "package.json"), "utf8"));
  expect(manifest.engines.node).toBe(`>=${MINIMUM_NODE}`);
});

it("reports each connected agent: ok, a node that is gone, one too old, a cairn script that is gone", () => {
  const script = entry();
  installWith("gemini", { command: process.execPath, args: [script] });
  const gone = join(home.temp.root, ".nvm", "versions", "node", "v22.14.0", "bin", "node");
  installWith("claude-code", { command: gone, args: [script] });
  // A node that answers like Node.js 20 (cairn no longer runs there).
  const old = join(home.temp.root, "old", "bin", "node");
  write(old, "#!/bin/sh\necho v20.11.1\n");
  chmodSync(old, 0o755);
  installWith("codex", { command: old, args: [script] });
  write(join(home.temp.root, ".pi", "agent", "settings.json"), "{}\n");
  const moved = join(home.temp.root, "old-checkout", "dist", "cli", "main.js");
  installWith("pi", { command: process.execPath, args: [moved, "--home", home.temp.home] });

  const byAgent = Object.fromEntries(checkConnectors(home.temp.env).map((check) => [check.agent, check]));
  // OpenCode was never installed: no line for it.
  expect(Object.keys(byAgent).sort()).toEqual(["claude-code", "codex", "gemini", "pi"]);
  expect(byAgent.gemini).toMatchObject({
    commands: [process.execPath],
    entries: [script],
    nodeVersions: { [process.execPath]: process.version },
    problems: [],
    fix: null,
  });
  expect(byAgent["claude-code"]).toMatchObject({
    problems: [`${gone} no longer exists`],
    fix: "run 'cairn install claude-code' again",
  });
  expect(byAgent.codex?.problems).toEqual([`${old} is Node.js v20.11.1; cairn needs ${MINIMUM_NODE} or later`]);
  expect(byAgent.pi?.problems).toEqual([`the cairn script ${moved} no longer exists`]);
});

it("leaves out a server of cairn's name that install did not write", () => {
  write(
    join(home.temp.root, ".claude", ".claude.json"),
    JSON.stringify({ mcpServers: { cairn: { command: "/gone/node", args: ["serve"] } } }),
  );
  expect(checkConnectors(home.temp.env)).toEqual([]);
});
