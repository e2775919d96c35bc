import { spawnSync } from "node:child_process";
import { accessSync, constants, statSync } from "node:fs";
import { isAbsolute } from "node:path";
import { connectorAgents } from "../agents/registry.js";
import { cliEntryIndex } from "./cairnEntry.js";
import { readOrNull } from "./configFileWrite.js";
import { connectorFor } from "./connectors.js";

/** The oldest Node.js cairn runs on: package.json's `engines.node` (test/connectors/connectorHealth.test.ts holds the two equal). */
export const MINIMUM_NODE = "22.14";

/** One agent whose config holds entries `cairn install` wrote, and whether what they run is still there. */
export interface ConnectorHealth {
  agent: string;
  /** The node binaries and cairn scripts the entries name (usually one of each). */
  commands: string[];
  entries: string[];
  /** `v24.1.0` per binary that answered `--version`. */
  nodeVersions: Record<string, string>;
  /** Empty when every entry can run. */
  problems: string[];
  /** What fixes the problems: the install again, from a cairn and Node.js that stay. */
  fix: string | null;
}

/**
 * Checks every agent connected by `cairn install`: the node binary and cairn script its hooks and MCP
 * entries name still exist and the node is one cairn supports. Install writes absolute paths (the agent
 * may start with another PATH), so removing a Node.js version (`nvm uninstall`) breaks them, and the
 * agent says nothing: a hook that cannot start is skipped. Agents without cairn's entries are left out.
 */
export function checkConnectors(env: NodeJS.ProcessEnv): ConnectorHealth[] {
  const context = { invocation: { command: "node", args: [] }, env };
  const versions = new Map<string, string | Error>();
  const results: ConnectorHealth[] = [];
  for (const agent of connectorAgents) {
    const argvs: unknown[][] = [];
    const problems: string[] = [];
    for (const edit of connectorFor(agent).edits(context)) {
      try {
        const content = readOrNull(edit.file);
        if (content !== null) argvs.push(...edit.installedArgv(content));
      } catch (error) {
        problems.push(`${edit.file} cannot be read (${(error as Error).message})`);
      }
    }
    // No entry of cairn's found: not connected (a file that cannot be read is the agent's to report then).
    if (argvs.length === 0) continue;
    const commands = unique(argvs.map((argv) => String(argv[0])));
    const entries = unique(argvs.map((argv) => String(argv[cliEntryIndex(argv)])));
    const nodeVersions: Record<string, string> = {};
    for (const command of commands) {
      const problem = executableProblem(command) ?? versionProblem(command, versions);
      const version = versions.get(command);
      if (typeof version === "string") nodeVersions[command] = version;
      if (problem) problems.push(problem);
    }
    for (const entry of entries) if (!isFile(entry)) problems.push(`the cairn script ${entry} no longer exists`);
    const fix = problems.length > 0 ? `run 'cairn install ${agent}' again` : null;
    results.push({ agent, commands, entries, nodeVersions, problems, fix });
  }
  return results;
}

function executableProblem(command: string): string | undefined {
  if (!isAbsolute(command)) return `the node command '${command}' is not an absolute path`;
  if (!isFile(command)) return `${command} no longer exists`;
  try {
    accessSync(command, constants.X_OK);
    return undefined;
  } catch {
    return `${command} is not executable`;
  }
}

/** Asks the binary its version once per doctor run (several agents usually name the same one). */
function versionProblem(command: string, versions: Map<string, string | Error>): string | undefined {
  if (!versions.has(command)) versions.set(command, nodeVersion(command));
  const version = versions.get(command);
  if (version instanceof Error) return `${command} does not run (${version.message})`;
  if (version === undefined) return undefined;
  if (!atLeast(version, MINIMUM_NODE)) return `${command} is Node.js ${version}; cairn needs ${MINIMUM_NODE} or later`;
  return undefined;
}

function nodeVersion(command: string): string | Error {
  const result = spawnSync(command, ["--version"], { encoding: "utf8", timeout: 10_000, env: {} });
  if (result.error) return result.error;
  const version = /^v\d+\.\d+\.\d+/.exec(result.stdout.trim())?.[0];
  if (result.status !== 0 || !version) {
    return new Error(`'--version' answered ${JSON.stringify((result.stdout || result.stderr).trim().slice(0, 80))}`);
  }
  return version;
}

/** `v22.14.0` against `22.14`, by major then minor. */
export function atLeast(version: string, minimum: string): boolean {
  const [major = 0, minor = 0] = version.replace(/^v/, "").split(".").map(Number);
  const [wantMajor = 0, wantMinor = 0] = minimum.split(".").map(Number);
  return major !== wantMajor ? major > wantMajor : minor >= wantMinor;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
