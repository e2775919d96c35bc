import { join, resolve } from "node:path";

/**
 * A folder an agent reads from one of its environment variables: trimmed and made absolute; undefined
 * when the variable is unset or blank, so the caller falls back to the agent's default. `tilde`: the
 * agent expands a leading `~` itself (pi and oh-my-pi do), so cairn must read the same folder.
 */
export function folderFromEnv(options: {
  env: NodeJS.ProcessEnv;
  name: string;
  home: string;
  tilde?: boolean;
}): string | undefined {
  const value = options.env[options.name]?.trim();
  if (!value) return undefined;
  if (options.tilde && value === "~") return options.home;
  if (options.tilde && value.startsWith("~/")) return join(options.home, value.slice(2));
  return resolve(value);
}
