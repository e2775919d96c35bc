import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { SourceAgent } from "../sources/registry.js";

/** The example sessions shipped with cairn, written in each agent's real format. */
export function demoSources(): Partial<Record<SourceAgent, string[]>> {
  const root = fileURLToPath(new URL("../../examples/demo/", import.meta.url));
  if (!existsSync(root)) throw new Error(`the demo sessions are missing from this installation (${root})`);
  return {
    codex: [join(root, "codex")],
    "claude-code": [join(root, "claude-code")],
    pi: [join(root, "pi")],
  };
}

/**
 * Settings for the demo: the offline extractor and consolidator, and time windows wide enough for
 * example sessions of any date, so a newcomer sees output with nothing configured.
 */
export const demoConfig: Record<string, unknown> = {
  "llm.provider": "offline",
  "consolidation.mode": "offline",
  "memories.maxRolloutAgeDays": 3650,
  "memories.minRolloutIdleHours": 0,
  "collection.idleHours": 0,
};

/**
 * The demo writes into the memory root named with `--home`, else a fresh temporary folder. Never into
 * `$CAIRN_HOME`: that is usually the user's real memory, and demo sessions must not mix into it.
 */
export function demoHome(given: string | undefined): string {
  return given ?? mkdtempSync(join(tmpdir(), "cairn-demo-"));
}
