import { type Cairn, openCairn } from "../../src/index.js";

/**
 * A cairn on `home` with no idle wait, offline unless `config` names a model, that excludes the
 * `exclude` globs (memories.exclude): reopened with more of them to exclude sessions after the fact.
 */
export function excludingCairn(
  home: string,
  clock: () => number,
  options: { exclude?: string[]; config?: Record<string, unknown> } = {},
): Cairn {
  const exclude = options.exclude ?? [];
  return openCairn({
    home,
    env: {},
    clock,
    config: {
      "llm.provider": "offline",
      "memories.minRolloutIdleHours": 0,
      ...options.config,
      ...(exclude.length > 0 ? { "memories.exclude": exclude } : {}),
    },
  });
}
