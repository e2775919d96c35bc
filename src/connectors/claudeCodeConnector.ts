import { join } from "node:path";
import { shellCommand } from "../util/cairnInvocation.js";
import { claudeConfigDir, claudeUserStateFile } from "./agentHomes.js";
import { appendHookGroup, cairnHooks, installedHookArgv, removeCairnHooks } from "./hookGroups.js";
import { parseJsonObject, stringifyLike } from "./jsonDocument.js";
import { installedServerArgv, removeServerEntry, setServerEntry } from "./jsonServerEntry.js";
import type { Connector, InstallContext, ManagedEdit } from "./types.js";

/**
 * cairn's hooks in `settings.json`, by event: how it recognizes each among the user's (the command line
 * ends with these words) and its timeout in seconds. SessionStart gives the memory block (and a
 * checkpoint's digest after a compaction or a clear); PreCompact and SessionEnd write a session
 * checkpoint. SessionEnd hooks share a 1.5-second budget unless a hook declares a longer `timeout`
 * (Claude Code's hooks reference), so each declares one.
 */
const HOOKS = [
  { event: "SessionStart", suffix: "hook session-start --agent claude-code", timeout: 10 },
  { event: "PreCompact", suffix: "hook pre-compact --agent claude-code", timeout: 10 },
  { event: "SessionEnd", suffix: "hook session-end --agent claude-code", timeout: 10 },
] as const;

/**
 * Claude Code: hooks in `settings.json` (SessionStart: the injection and the background run;
 * PreCompact and SessionEnd: session checkpoints) and the MCP server at user scope in `.claude.json`
 * (`mcpServers.cairn`, where `claude mcp add -s user` puts it).
 */
export const claudeCodeConnector: Connector = {
  agent: "claude-code",
  edits: (context) => [hooksEdit(context), mcpServerEdit(context)],
};

/** One edit for the three hooks: the installer records and restores per file. */
function hooksEdit(context: InstallContext): ManagedEdit {
  const file = join(claudeConfigDir(context.env), "settings.json");
  const wanted = HOOKS.map((hook) => ({ ...hook, command: shellCommand(context.invocation, hook.suffix.split(" ")) }));
  return {
    file,
    what: "SessionStart, PreCompact and SessionEnd hooks",
    install(current) {
      const settings = parseJsonObject(current, file);
      let changed = false;
      for (const hook of wanted) {
        const ours = cairnHooks(settings, { ...hook, file, agent: "claude-code" });
        if (ours.length === 1 && ours[0]?.command === hook.command && ours[0].timeout === hook.timeout) continue;
        removeCairnHooks(settings, hook.event, hook.suffix, file);
        appendHookGroup(settings, hook.event, { type: "command", command: hook.command, timeout: hook.timeout });
        changed = true;
      }
      return changed ? stringifyLike(current, settings) : (current ?? "");
    },
    uninstall(current) {
      const settings = parseJsonObject(current, file);
      let removed = false;
      for (const hook of HOOKS) removed = removeCairnHooks(settings, hook.event, hook.suffix, file) || removed;
      return removed ? stringifyLike(current, settings) : current;
    },
    installedArgv: (content) =>
      HOOKS.flatMap((hook) => installedHookArgv(parseJsonObject(content, file), { ...hook, file })),
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
      return setServerEntry({ settings: state, key: "mcpServers", file, agent: "claude-code" }, entry)
        ? stringifyLike(current, state)
        : (current ?? "");
    },
    uninstall(current) {
      const state = parseJsonObject(current, file);
      return removeServerEntry(state, "mcpServers") ? stringifyLike(current, state) : current;
    },
    installedArgv: (content) => installedServerArgv(parseJsonObject(content, file), "mcpServers"),
    isEmpty: (content) => Object.keys(parseJsonObject(content, file)).length === 0,
  };
}
