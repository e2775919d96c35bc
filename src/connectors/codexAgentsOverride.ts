import { readFileSync } from "node:fs";
import { join } from "node:path";
import { codexHome } from "./agentHomes.js";
import { AGENTS_MARKERS } from "./codexConnector.js";

/**
 * A warning when Codex will not see cairn's block in `$CODEX_HOME/AGENTS.md`: at the global level Codex
 * reads `AGENTS.override.md` when it exists and uses only the first non-empty file of the two
 * (https://developers.openai.com/codex/guides/agents-md, "How Codex discovers guidance"). Undefined when
 * cairn's block is not installed, there is no override, it is empty, or it carries cairn's block itself.
 */
export function codexAgentsOverrideWarning(env: NodeJS.ProcessEnv): string | undefined {
  const home = codexHome(env);
  const agents = readOrEmpty(join(home, "AGENTS.md"));
  if (!agents.includes(AGENTS_MARKERS.begin)) return undefined;
  const overrideFile = join(home, "AGENTS.override.md");
  const override = readOrEmpty(overrideFile);
  if (override.trim() === "" || override.includes(AGENTS_MARKERS.begin)) return undefined;
  return `warning: Codex reads ${overrideFile} instead of AGENTS.md, so it never sees cairn's memory instructions; copy the cairn block from AGENTS.md into it, or remove it`;
}

function readOrEmpty(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
}
