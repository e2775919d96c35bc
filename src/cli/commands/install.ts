import { join, resolve } from "node:path";
import type { Command } from "commander";
import { agentDescriptor, connectorAgents } from "../../agents/registry.js";
import { createMemoryRoot } from "../../config/createMemoryRoot.js";
import { cairnHome, cairnPaths } from "../../config/paths.js";
import type { FileChange } from "../../connectors/types.js";
import type { GlobalOptions } from "../context.js";
import { printJson, printLine } from "../output.js";

type Direction = "install" | "uninstall";

export function registerInstall(program: Command): void {
  program
    .command("install")
    .description(`wire cairn into an agent: its session-start hook and MCP server (${connectorAgents.join(", ")})`)
    .argument("<agent>", connectorAgents.join(", "))
    .option("--json", "print the changes as JSON")
    .action((agent: string, _options: unknown, command: Command) => apply("install", agent, command));
  program
    .command("uninstall")
    .description("remove what 'cairn install <agent>' added, restoring the agent's files")
    .argument("<agent>", connectorAgents.join(", "))
    .option("--json", "print the changes as JSON")
    .action((agent: string, _options: unknown, command: Command) => apply("uninstall", agent, command));
}

async function apply(direction: Direction, agent: string, command: Command): Promise<void> {
  const global = command.optsWithGlobals<GlobalOptions>();
  const [
    { connectorFor },
    { installConnector, uninstallConnector },
    { cairnInvocation, cliEntry, transientEntry },
    { loadConfig },
    { stableNodePath, versionedFolder },
  ] = await Promise.all([
    import("../../connectors/connectors.js"),
    import("../../connectors/applyConnector.js"),
    import("../../util/cairnInvocation.js"),
    import("../../config/load.js"),
    import("../../util/stableNodePath.js"),
  ]);
  const home = global.home ? resolve(global.home) : cairnHome(process.env);
  const connector = connectorFor(agent);
  // Before any agent file changes: hooks and an MCP entry that run cairn on a memory root it cannot
  // use would fail at every session start, and install would stop half-way on its own state folder.
  if (direction === "install") createMemoryRoot(home);
  const invocation = cairnInvocation({ home, env: process.env });
  // The node on PATH when it is this binary through a link that survives upgrades (docs/integration.md).
  const context = { invocation: { ...invocation, command: stableNodePath(process.env) }, env: process.env };
  const options = { stateDir: join(home, "connectors") };
  const changes =
    direction === "install"
      ? installConnector(connector, context, options)
      : uninstallConnector(connector, context, options);
  const enabled = loadConfig({ file: cairnPaths(home).config, env: process.env }).memories.enabled;
  const notes = notesFor(direction, agent, changes, enabled);
  const transient = direction === "install" ? transientEntry(cliEntry()) : undefined;
  if (transient) {
    notes.push(
      `warning: ${transient}; the agent's hooks and MCP entry would then run nothing. Install cairn for good (npm install -g cairn-memory) and run 'cairn install ${agent}' again`,
    );
  }
  const versioned = direction === "install" ? versionedFolder(context.invocation.command) : undefined;
  if (versioned) {
    notes.push(
      `note: the agent runs cairn with ${context.invocation.command}, in a folder named for Node.js ${versioned}; after removing or upgrading that version, run 'cairn install ${agent}' again ('cairn doctor' checks)`,
    );
  }
  if (direction === "install" && agent === "codex") {
    const { codexAgentsOverrideWarning } = await import("../../connectors/codexAgentsOverride.js");
    const warning = codexAgentsOverrideWarning(process.env);
    if (warning) notes.push(warning);
  }
  if (direction === "install" && agent === "gemini") {
    const { geminiHooksOffWarning } = await import("../../connectors/geminiConnector.js");
    const warning = geminiHooksOffWarning(process.env);
    if (warning) notes.push(warning);
  }
  if (global.json) return printJson({ agent, direction, changes, notes });
  for (const change of changes) printLine(describe(change));
  for (const note of notes) printLine(note);
}

function describe(change: FileChange): string {
  const verb: Record<FileChange["action"], string> = {
    created: "created",
    updated: "updated",
    unchanged: "unchanged",
    restored: "restored from backup",
    "removed-entries": "removed cairn's entries from",
    deleted: "deleted (cairn had created it)",
    absent: "absent",
    "folder-removed": "removed",
  };
  const backup = change.backup && change.action !== "restored" ? ` (backup: ${change.backup})` : "";
  return `${verb[change.action]} ${change.file}: ${change.what}${backup}`;
}

function notesFor(direction: Direction, agent: string, changes: FileChange[], enabled: boolean): string[] {
  const notes: string[] = [];
  const changed = changes.some((change) => change.action !== "unchanged" && change.action !== "absent");
  if (!changed) notes.push(direction === "install" ? "already installed: nothing changed" : "nothing to remove");
  if (direction === "install" && !enabled) {
    notes.push(
      // Not "the hook": codex and opencode have none (the registry does not say which agents do).
      "note: memories.enabled is false, so cairn injects no memory and starts no runs until you run 'cairn config set memories.enabled true'",
    );
  }
  if (changed) notes.push(`restart ${agentDescriptor(agent)?.displayName ?? agent} for the change to take effect`);
  return notes;
}
