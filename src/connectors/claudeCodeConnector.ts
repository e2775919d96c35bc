import { join } from "node:path";
import { shellCommand } from "../util/cairnInvocation.js";
import { claudeConfigDir, claudeUserStateFile } from "./agentHomes.js";
import { appendHookGroup, cairnHooks, removeCairnHooks } from "./hookGroups.js";
import { parseJsonObject, stringifyLike } from "./jsonDocument.js";
import { removeServerEntry, setServerEntry } from "./jsonServerEntry.js";
import type { Connector, InstallContext, ManagedEdit } from "./types.js";

/** How cairn recognizes its own hook among the user's: the command line ends with these words. */
const HOOK_SUFFIX = "hook session-start --agent claude-code";
const HOOK_TIMEOUT_SECONDS = 10;

/**
 * Claude Code: a SessionStart hook in `settings.json` (the injection and the background run) and the
 * MCP server at user scope in `.claude.json` (`mcpServers.cairn`, where `claude mcp add -s user` puts it).
 */
export const claudeCodeConnector: Connector = {
  agent: "claude-code",
  edits: (context) => [sessionStartHookEdit(context), mcpServerEdit(context)],
};

function sessionStartHookEdit(context: InstallContext): ManagedEdit {
  const file = join(claudeConfigDir(context.env), "settings.json");
  const command = shellCommand(context.invocation, HOOK_SUFFIX.split(" "));
  return {
    file,
    what: "SessionStart hook",
    install(current) {
      const settings = parseJsonObject(current, file);
      const ours = cairnHooks(settings, "SessionStart", HOOK_SUFFIX, file);
      if (ours.length === 1 && ours[0]?.command === command && ours[0].timeout === HOOK_TIMEOUT_SECONDS) {
        return current ?? "";
      }
      removeCairnHooks(settings, "SessionStart", HOOK_SUFFIX, file);
      appendHookGroup(settings, "SessionStart", { type: "command", command, timeout: HOOK_TIMEOUT_SECONDS });
      return stringifyLike(current, settings);
    },
    uninstall(current) {
      const settings = parseJsonObject(current, file);
      return removeCairnHooks(settings, "SessionStart", HOOK_SUFFIX, file) ? stringifyLike(current, settings) : current;
    },
    isEmpty: (content) => Object.keys(parseJsonObject(content, file)).length === 0,
  };
}

function mcpServerEdit(context: InstallContext): ManagedEdit {
  const file = claudeUserStateFile(context.env);
  const entry = {
    type: "stdio",
    command: context.invocation.command,
    args: [...context.invocation.args, "mcp"],
    env: {},
  };
  return {
    file,
    what: "MCP server 'cairn' (user scope)",
    install(current) {
      const state = parseJsonObject(current, file);
      return setServerEntry(state, "mcpServers", entry, file) ? stringifyLike(current, state) : (current ?? "");
    },
    uninstall(current) {
      const state = parseJsonObject(current, file);
      return removeServerEntry(state, "mcpServers") ? stringifyLike(current, state) : current;
    },
    isEmpty: (content) => Object.keys(parseJsonObject(content, file)).length === 0,
  };
}
