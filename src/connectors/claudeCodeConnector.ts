import { join } from "node:path";
import { shellCommand } from "../util/cairnInvocation.js";
import { CairnError } from "../util/errors.js";
import { claudeConfigDir, claudeUserStateFile } from "./agentHomes.js";
import { isJsonObject, type JsonObject, jsonEqual, parseJsonObject, stringifyLike } from "./jsonDocument.js";
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
      const ours = cairnHooks(settings, file);
      if (ours.length === 1 && ours[0]?.command === command && ours[0].timeout === HOOK_TIMEOUT_SECONDS) {
        return current ?? "";
      }
      removeCairnHooks(settings, file);
      const hooks = (settings.hooks ?? {}) as JsonObject;
      const groups = (hooks.SessionStart ?? []) as unknown[];
      hooks.SessionStart = [...groups, { hooks: [{ type: "command", command, timeout: HOOK_TIMEOUT_SECONDS }] }];
      settings.hooks = hooks;
      return stringifyLike(current, settings);
    },
    uninstall(current) {
      const settings = parseJsonObject(current, file);
      return removeCairnHooks(settings, file) ? stringifyLike(current, settings) : current;
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
      const servers = state.mcpServers ?? {};
      if (!isJsonObject(servers)) throw conflict(file, "mcpServers is not an object");
      if (jsonEqual(servers.cairn, entry)) return current ?? "";
      state.mcpServers = { ...servers, cairn: entry };
      return stringifyLike(current, state);
    },
    uninstall(current) {
      const state = parseJsonObject(current, file);
      const servers = state.mcpServers;
      if (!isJsonObject(servers) || !("cairn" in servers)) return current;
      delete servers.cairn;
      if (Object.keys(servers).length === 0) delete state.mcpServers;
      return stringifyLike(current, state);
    },
    isEmpty: (content) => Object.keys(parseJsonObject(content, file)).length === 0,
  };
}

interface HookCommand {
  type?: unknown;
  command?: unknown;
  timeout?: unknown;
}

function sessionStartGroups(settings: JsonObject, file: string): unknown[] | undefined {
  const hooks = settings.hooks;
  if (hooks === undefined) return undefined;
  if (!isJsonObject(hooks)) throw conflict(file, "hooks is not an object");
  const groups = hooks.SessionStart;
  if (groups === undefined) return undefined;
  if (!Array.isArray(groups)) throw conflict(file, "hooks.SessionStart is not a list");
  return groups;
}

function isCairnHook(hook: unknown): hook is HookCommand {
  return isJsonObject(hook) && typeof hook.command === "string" && hook.command.trimEnd().endsWith(HOOK_SUFFIX);
}

function cairnHooks(settings: JsonObject, file: string): HookCommand[] {
  return (sessionStartGroups(settings, file) ?? []).flatMap((group) =>
    isJsonObject(group) && Array.isArray(group.hooks) ? group.hooks.filter(isCairnHook) : [],
  );
}

/** Removes cairn's hooks, then the groups, the SessionStart list and the hooks object left empty by that. */
function removeCairnHooks(settings: JsonObject, file: string): boolean {
  const groups = sessionStartGroups(settings, file);
  if (!groups) return false;
  let removed = false;
  const kept = groups.flatMap((group) => {
    if (!isJsonObject(group) || !Array.isArray(group.hooks)) return [group];
    const hooks = group.hooks.filter((hook) => !isCairnHook(hook));
    if (hooks.length === group.hooks.length) return [group];
    removed = true;
    return hooks.length === 0 ? [] : [{ ...group, hooks }];
  });
  if (!removed) return false;
  const container = settings.hooks as JsonObject;
  if (kept.length > 0) container.SessionStart = kept;
  else delete container.SessionStart;
  if (Object.keys(container).length === 0) delete settings.hooks;
  return true;
}

function conflict(file: string, what: string): CairnError {
  return new CairnError("connector_config_invalid", `${file}: ${what}; fix it first`);
}
