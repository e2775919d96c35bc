import type { Command } from "commander";
import type { PatternCoverage } from "../../collection/exclusionCoverage.js";
import { withoutCredentials } from "../../providers/scrub.js";
import { CairnError } from "../../util/errors.js";
import { withCairn } from "../context.js";
import { printJson, printLine } from "../output.js";

const SECRET_KEYS = /apiKey|token/i;

export function registerConfig(program: Command): void {
  const config = program.command("config").description("read and change settings in $CAIRN_HOME/config.yaml");

  config
    .command("list")
    .description("print every effective setting (file, environment and defaults merged)")
    .option("--json", "print JSON")
    .action(async (_options: unknown, command: Command) => {
      await withCairn(command, async (cairn, global) => {
        const effective = maskSecrets(cairn.config);
        if (global.json) return printJson(effective);
        for (const [key, value] of flatten(effective)) printLine(`${key} = ${JSON.stringify(value)}`);
        // The ranking the profile and the settings above give, so a user sees what recall runs.
        const { recallStages } = await import("../../recall/recallStages.js");
        const stages = recallStages(cairn.config.recall).map((stage) => stage.name);
        printLine(`# recall stages (recall.profile ${cairn.config.recall.profile}): ${stages.join(", ")}`);
      });
    });

  config
    .command("get <key>")
    .description("print one effective setting, e.g. memories.enabled")
    .option("--json", "print JSON")
    .action(async (key: string, _options: unknown, command: Command) => {
      await withCairn(command, async (cairn, global) => {
        const { getPath, isConfigKey } = await import("../../config/load.js");
        const value = getPath(maskSecrets(cairn.config), key);
        if (value === undefined && !isConfigKey(key))
          throw new CairnError("config_unknown_key", `config: unknown key ${key}; see 'cairn config list'`);
        // A setting with no default that is not set (llm.model: the provider's own model is used).
        if (value === undefined) {
          if (global.json) return printJson({ key, value: null, set: false });
          return printLine(`${key} is not set (no default); set it with 'cairn config set ${key} <value>'`);
        }
        if (global.json) printJson({ key, value });
        else printLine(typeof value === "string" ? value : JSON.stringify(value));
      });
    });

  config
    .command("set <key> <value>")
    .description("validate and store one setting, e.g. 'cairn config set memories.enabled true'")
    .option("--json", "print JSON")
    .action(async (key: string, value: string, _options: unknown, command: Command) => {
      await withCairn(command, async (cairn, global) => {
        const { getPath, setConfigValue } = await import("../../config/load.js");
        const updated = setConfigValue(cairn.paths.config, key, value);
        const stored = getPath(maskSecrets(updated), key);
        const coverage = key === "memories.exclude" ? cairn.exclusionCoverage(updated.memories.exclude) : undefined;
        if (global.json)
          return printJson({ key, value: stored, file: cairn.paths.config, ...(coverage ? { coverage } : {}) });
        printLine(`${key} = ${JSON.stringify(stored)} (written to ${cairn.paths.config})`);
        if (key === "memories.exclude") for (const line of describeCoverage(coverage)) printLine(line);
      });
    });
}

function maskSecrets(value: unknown, key = ""): unknown {
  if (Array.isArray(value)) return value.map((entry) => maskSecrets(entry, key));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskSecrets(v, k)]));
  }
  if (typeof value !== "string") return value;
  if (SECRET_KEYS.test(key) && value.length > 0) return "***";
  // Other settings can hold one too: `llm.baseUrl: https://user:key@proxy/v1`.
  return withoutCredentials(value);
}

function flatten(value: unknown, prefix = ""): Array<[string, unknown]> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return [[prefix, value]];
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return [[prefix, {}]];
  return entries.flatMap(([key, inner]) => flatten(inner, prefix ? `${prefix}.${key}` : key));
}

/** What the new `memories.exclude` covers now, one line per pattern, a warning for one that covers nothing. */
function describeCoverage(coverage: PatternCoverage[] | undefined): string[] {
  if (coverage === undefined) return ["no sessions known yet: the patterns apply from the first scan"];
  const lines = coverage.map(({ pattern, sessions, projects }) =>
    sessions === 0
      ? `warning: '${pattern}' matches none of the known sessions; check it (a path covers that folder and everything below it, a key such as git:github.com/acme/* the projects it names)`
      : `'${pattern}' covers ${plural(sessions, "known session")} in ${plural(projects, "project")}`,
  );
  if (coverage.some((entry) => entry.sessions > 0))
    lines.push("the next 'cairn run' drops their transcripts and erases what cairn learned from them");
  return lines;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}
