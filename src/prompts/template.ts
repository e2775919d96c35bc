import { readFileSync } from "node:fs";
import { CairnError } from "../util/errors.js";

const cache = new Map<string, string>();

/** Reads a shipped prompt template (`src/prompts/<name>`, copied to `dist/prompts/` by the build). */
export function loadPrompt(name: string): string {
  let text = cache.get(name);
  if (text === undefined) {
    try {
      text = readFileSync(new URL(`./${name}`, import.meta.url), "utf8");
    } catch (error) {
      throw new CairnError("prompt_missing", `prompt template ${name} is missing from the installation`, {
        cause: error,
      });
    }
    cache.set(name, text);
  }
  return text;
}

/**
 * Fills `{{name}}` placeholders in one pass. Values are inserted verbatim and never scanned again, so
 * transcript text that contains `{{...}}` cannot expand into other variables. A placeholder without a
 * value is an error: a silently empty section would change what the model is told.
 */
export function fillTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\{\{\s*([a-z_][a-z0-9_]*)\s*\}\}/gi, (_match, name: string) => {
    const value = values[name];
    if (value === undefined) throw new CairnError("prompt_variable", `prompt variable {{${name}}} has no value`);
    return value;
  });
}
