import { CairnError } from "../util/errors.js";
import { type JsonObject, parseJsonObject } from "./jsonDocument.js";

/**
 * Refuses a settings file written as JSONC (comments or trailing commas), which Gemini CLI and OpenCode
 * accept: cairn rewrites the JSON it merges into, and would silently drop the user's comments. Strings
 * are skipped, so a URL's `//` inside quotes is not a comment.
 */
export function refuseJsonc(text: string | null, file: string, rerun: string): void {
  if (text === null) return;
  const found = jsoncFeature(text);
  if (!found) return;
  throw new CairnError(
    "connector_config_invalid",
    `${file} holds ${found}, which cairn would lose when it rewrites the file, so it changed nothing; remove them (or add cairn's entries by hand, see docs/integration.md) and run '${rerun}' again`,
  );
}

function jsoncFeature(text: string): string | undefined {
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (inString) {
      if (char === "\\") i++;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') inString = true;
    else if (char === "/" && (text[i + 1] === "/" || text[i + 1] === "*")) return "comments";
    else if (char === "," && closesNext(text, i + 1)) return "trailing commas";
  }
  return undefined;
}

/** Whether the next character after whitespace (from `start`) closes an object or a list. */
function closesNext(text: string, start: number): boolean {
  let i = start;
  while (i < text.length && /\s/.test(text[i] ?? "")) i++;
  return text[i] === "}" || text[i] === "]";
}

/** A JSON settings file that may be written as JSONC by the agent, as an object; `rerun` is the command to repeat. */
export function parseJsonSettings(text: string | null, file: string, rerun: string): JsonObject {
  refuseJsonc(text, file, rerun);
  return parseJsonObject(text, file);
}
