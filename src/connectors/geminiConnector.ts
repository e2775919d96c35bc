import { join } from "node:path";
import { shellCommand } from "../util/cairnInvocation.js";
import { geminiDir } from "./agentHomes.js";
import { readOrNull } from "./configFileWrite.js";
import { appendHookGroup, cairnHooks, installedHookArgv, removeCairnHooks } from "./hookGroups.js";
import { editJsoncLike, parseJsoncObject } from "./jsoncDocument.js";
import { isJsonObject } from "./jsonDocument.js";
import { installedServerArgv, removeServerEntry, setServerEntry } from "./jsonServerEntry.js";
import type { Connector, InstallContext, ManagedEdit } from "./types.js";

/** Gemini CLI counts hook timeouts in milliseconds (docs/hooks/reference.md, "Hook configuration"). */
const HOOK_TIMEOUT_MS = 10_000;

/**
 * cairn's hooks, by event: how it recognizes each among the user's (the command line ends with these
 * words) and its name (`/hooks disable <name>`). SessionStart gives the memory block (and a checkpoint's
 * digest after a `/clear`); PreCompress and SessionEnd, both advisory in Gemini CLI, write a session
 * checkpoint (docs/hooks/reference.md, "Lifecycle & system hooks").
 */
const HOOK_NAME = "cairn-memory";
const HOOKS = [
  { event: "SessionStart", suffix: "hook session-start --agent gemini", name: HOOK_NAME },
  { event: "PreCompress", suffix: "hook pre-compact --agent gemini", name: "cairn-checkpoint-compress" },
  { event: "SessionEnd", suffix: "hook session-end --agent gemini", name: "cairn-checkpoint-end" },
] as const;

/**
 * Gemini CLI: one user `settings.json` (`$GEMINI_CLI_HOME/.gemini/`, else `~/.gemini/`) holds both what
 * cairn adds: a `SessionStart` hook whose `hookSpecificOutput.additionalContext` Gemini CLI injects as the
 * session's first turn (and which starts the background run), and the MCP server `mcpServers.cairn`.
 * One edit for both, since the installer records and restores per file.
 */
export const geminiConnector: Connector = {
  agent: "gemini",
  edits: (context) => [settingsEdit(context)],
};

function settingsEdit(context: InstallContext): ManagedEdit {
  const file = join(geminiDir(context.env), "settings.json");
  const hooks = HOOKS.map((hook) => ({
    ...hook,
    entry: {
      name: hook.name,
      type: "command",
      command: shellCommand(context.invocation, hook.suffix.split(" ")),
      timeout: HOOK_TIMEOUT_MS,
    },
  }));
  // No underscore in the server's name: Gemini CLI splits `mcp_<server>_<tool>` at the first one.
  const server = { command: context.invocation.command, args: [...context.invocation.args, "mcp"] };
  return {
    file,
    what: "SessionStart, PreCompress and SessionEnd hooks and MCP server 'cairn'",
    install(current) {
      const settings = parseJsoncObject(current, file, "cairn install gemini");
      let hooksChanged = false;
      for (const { event, suffix, entry } of hooks) {
        const ours = cairnHooks(settings, { event, suffix, file, agent: "gemini" });
        const inPlace =
          ours.length === 1 &&
          ours[0]?.command === entry.command &&
          ours[0].timeout === entry.timeout &&
          ours[0].name === entry.name;
        if (inPlace) continue;
        removeCairnHooks(settings, event, suffix, file);
        appendHookGroup(settings, event, entry);
        hooksChanged = true;
      }
      const serverChanged = setServerEntry({ settings, key: "mcpServers", file, agent: "gemini" }, server);
      return !hooksChanged && !serverChanged ? (current ?? "") : editJsoncLike(current, settings);
    },
    uninstall(current) {
      const settings = parseJsoncObject(current, file, "cairn uninstall gemini");
      let hookRemoved = false;
      for (const { event, suffix } of HOOKS)
        hookRemoved = removeCairnHooks(settings, event, suffix, file) || hookRemoved;
      const serverRemoved = removeServerEntry(settings, "mcpServers");
      return hookRemoved || serverRemoved ? editJsoncLike(current, settings) : current;
    },
    installedArgv(content) {
      const settings = parseJsoncObject(content, file, "cairn install gemini");
      const hookArgv = HOOKS.flatMap((hook) => installedHookArgv(settings, { ...hook, file }));
      return [...hookArgv, ...installedServerArgv(settings, "mcpServers")];
    },
    isEmpty: (content) => Object.keys(parseJsoncObject(content, file, "cairn uninstall gemini")).length === 0,
  };
}

/**
 * Why Gemini CLI would not run the installed hook, for the install report: hooks switched off as a whole
 * (`hooksConfig.enabled: false`) or cairn's by name (`hooksConfig.disabled`, what `/hooks disable` writes).
 * A file cairn cannot read gives no warning (the install itself reports it).
 */
export function geminiHooksOffWarning(env: NodeJS.ProcessEnv): string | undefined {
  const file = join(geminiDir(env), "settings.json");
  let config: unknown;
  try {
    config = parseJsoncObject(readOrNull(file), file, "cairn install gemini").hooksConfig;
  } catch {
    return undefined;
  }
  if (!isJsonObject(config)) return undefined;
  if (config.enabled === false) {
    return `warning: ${file} sets hooksConfig.enabled to false, so Gemini CLI runs no hooks and starts sessions without cairn's memory; set it to true (or run /hooks enable-all in Gemini CLI)`;
  }
  if (Array.isArray(config.disabled) && config.disabled.includes(HOOK_NAME)) {
    return `warning: ${file} lists '${HOOK_NAME}' in hooksConfig.disabled, so Gemini CLI starts sessions without cairn's memory; run /hooks enable ${HOOK_NAME} in Gemini CLI`;
  }
  return undefined;
}
