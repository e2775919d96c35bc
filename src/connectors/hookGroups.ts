import { CairnError } from "../util/errors.js";
import { notWrittenByInstall, shellWords, writtenByInstall } from "./cairnEntry.js";
import { isJsonObject, type JsonObject } from "./jsonDocument.js";

/**
 * The `hooks.<Event>` lists that Claude Code and Gemini CLI share in their settings.json: groups of
 * `{ matcher?, hooks: [{ type: "command", command, ... }] }`. cairn recognizes its own hook by the end of
 * its command line (`suffix`), so a moved cairn or a changed `--home` still counts as cairn's.
 */
export interface HookCommand {
  type?: unknown;
  command?: unknown;
  timeout?: unknown;
  name?: unknown;
}

function eventGroups(settings: JsonObject, event: string, file: string): unknown[] | undefined {
  const hooks = settings.hooks;
  if (hooks === undefined) return undefined;
  if (!isJsonObject(hooks)) throw configConflict(file, "hooks is not an object");
  const groups = hooks[event];
  if (groups === undefined) return undefined;
  if (!Array.isArray(groups)) throw configConflict(file, `hooks.${event} is not a list`);
  return groups;
}

/** A hook running cairn's `suffix` command, whoever wrote it. */
function runsCairnCommand(hook: unknown, suffix: string): hook is HookCommand & { command: string } {
  return isJsonObject(hook) && typeof hook.command === "string" && hook.command.trimEnd().endsWith(suffix);
}

/** A hook `cairn install` wrote: the user's own hooks, even one running cairn by hand, are never cairn's to change. */
function isCairnHook(hook: unknown, suffix: string): hook is HookCommand {
  if (!runsCairnCommand(hook, suffix)) return false;
  return writtenByInstall(shellWords(hook.command) ?? [], suffix.split(" "));
}

/**
 * cairn's hooks under `hooks.<event>`, in every group. A hook running the same cairn command that
 * `cairn install` did not write (the user wired cairn by hand) is refused: installing beside it would
 * run cairn twice, and replacing it would lose it at uninstall.
 */
export function cairnHooks(
  settings: JsonObject,
  hook: { event: string; suffix: string; file: string; agent: string },
): HookCommand[] {
  const { event, suffix, file } = hook;
  const hooks = (eventGroups(settings, event, file) ?? []).flatMap((group) =>
    isJsonObject(group) && Array.isArray(group.hooks) ? group.hooks : [],
  );
  const foreign = hooks.find((entry) => runsCairnCommand(entry, suffix) && !isCairnHook(entry, suffix));
  if (foreign) {
    const what = `a ${event} hook running '${suffix}' (${(foreign as { command: string }).command})`;
    throw notWrittenByInstall({ file, what, agent: hook.agent });
  }
  return hooks.filter((entry) => isCairnHook(entry, suffix));
}

/** The command lines (as words) of the hooks install wrote under `hooks.<event>`, for `cairn doctor`. */
export function installedHookArgv(
  settings: JsonObject,
  hook: { event: string; suffix: string; file: string },
): string[][] {
  return (eventGroups(settings, hook.event, hook.file) ?? []).flatMap((group) =>
    isJsonObject(group) && Array.isArray(group.hooks)
      ? group.hooks.flatMap((entry) =>
          isCairnHook(entry, hook.suffix) ? [shellWords(String(entry.command)) ?? []] : [],
        )
      : [],
  );
}

/** Appends one group holding `hook` to `hooks.<event>`, creating the containers it needs. */
export function appendHookGroup(settings: JsonObject, event: string, hook: JsonObject): void {
  const hooks = (settings.hooks ?? {}) as JsonObject;
  const groups = (hooks[event] ?? []) as unknown[];
  hooks[event] = [...groups, { hooks: [hook] }];
  settings.hooks = hooks;
}

/** Removes cairn's hooks, then the groups, the event list and the hooks object left empty by that. */
export function removeCairnHooks(settings: JsonObject, event: string, suffix: string, file: string): boolean {
  const groups = eventGroups(settings, event, file);
  if (!groups) return false;
  let removed = false;
  const kept = groups.flatMap((group) => {
    if (!isJsonObject(group) || !Array.isArray(group.hooks)) return [group];
    const hooks = group.hooks.filter((hook) => !isCairnHook(hook, suffix));
    if (hooks.length === group.hooks.length) return [group];
    removed = true;
    return hooks.length === 0 ? [] : [{ ...group, hooks }];
  });
  if (!removed) return false;
  const container = settings.hooks as JsonObject;
  if (kept.length > 0) container[event] = kept;
  else delete container[event];
  if (Object.keys(container).length === 0) delete settings.hooks;
  return true;
}

export function configConflict(file: string, what: string): CairnError {
  return new CairnError("connector_config_invalid", `${file}: ${what}; fix it first`);
}
