import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, symlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { parse as parseJsonc } from "jsonc-parser";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { installConnector, uninstallConnector } from "../../src/connectors/applyConnector.js";
import { opencodeConnector } from "../../src/connectors/opencodeConnector.js";
import type { InstallContext } from "../../src/connectors/types.js";
import {
  actionsOf as actions,
  backupsOf as backups,
  readConfig as read,
  writeConfig as write,
} from "../helpers/connectorFiles.js";
import { type TempHome, tempHome } from "../server/tempHome.js";

// A user's global OpenCode config as OpenCode documents it (provenance: the fixture's README.md).
const fixtures = join(import.meta.dirname, "..", "fixtures", "opencode", "user-config");
const userConfig = readFileSync(join(fixtures, "opencode.json"), "utf8");
const userAgents = readFileSync(join(fixtures, "AGENTS.md"), "utf8");
const server = {
  type: "local",
  command: ["/opt/node/bin/node", "/opt/cairn/dist/cli/main.js", "mcp", "--background-run"],
  enabled: true,
};

let temp: TempHome;
let context: InstallContext;
let configFile: string;
let agentsFile: string;
const options = () => ({ stateDir: join(temp.home, "connectors"), now: () => new Date("2026-05-01T10:00:00Z") });

beforeEach(() => {
  temp = tempHome();
  context = { invocation: { command: "/opt/node/bin/node", args: ["/opt/cairn/dist/cli/main.js"] }, env: temp.env };
  // tempHome sets XDG_CONFIG_HOME, under which OpenCode keeps its global `opencode` folder.
  configFile = join(temp.root, ".config", "opencode", "opencode.json");
  agentsFile = join(temp.root, ".config", "opencode", "AGENTS.md");
});

afterEach(() => temp.cleanup());

/** Whether every line of `original` is still in `text`, in order: cairn only inserted lines of its own. */
function keepsLines(text: string, original: string): boolean {
  const lines = text.split("\n");
  let at = 0;
  for (const line of original.split("\n")) {
    at = lines.indexOf(line, at);
    if (at < 0) return false;
  }
  return true;
}

describe("cairn install opencode", () => {
  it("adds mcp.cairn and the AGENTS.md block, idempotently, and uninstall restores both byte for byte", () => {
    write(configFile, userConfig);
    write(agentsFile, userAgents);
    expect(actions(installConnector(opencodeConnector, context, options()))).toEqual(["updated", "updated"]);
    const config = JSON.parse(read(configFile));
    expect(config.mcp).toEqual({ ...JSON.parse(userConfig).mcp, cairn: server });
    expect({ ...config, mcp: undefined }).toEqual({ ...JSON.parse(userConfig), mcp: undefined });
    expect(keepsLines(read(configFile), userConfig)).toBe(true);
    const agents = read(agentsFile);
    expect(agents.startsWith(`${userAgents}\n<!-- cairn:begin (added by 'cairn install opencode'`)).toBe(true);
    expect(agents).toContain("call the `cairn` tool `read` with `memory://root`");
    expect(agents).toContain("/opt/node/bin/node /opt/cairn/dist/cli/main.js inject --agent opencode --cwd .");
    expect(agents.endsWith("<!-- cairn:end -->\n")).toBe(true);
    expect([backups(configFile), backups(agentsFile)]).toEqual([[userConfig], [userAgents]]);

    const installed = [read(configFile), read(agentsFile)];
    expect(actions(installConnector(opencodeConnector, context, options()))).toEqual(["unchanged", "unchanged"]);
    expect([read(configFile), read(agentsFile)]).toEqual(installed);
    expect([backups(configFile), backups(agentsFile)].map((list) => list.length)).toEqual([1, 1]);

    expect(actions(uninstallConnector(opencodeConnector, context, options()))).toEqual(["restored", "restored"]);
    expect(read(configFile)).toBe(userConfig);
    expect(read(agentsFile)).toBe(userAgents);
    expect(existsSync(join(temp.home, "connectors", "opencode.json"))).toBe(false);
  });

  it("after the user edits the files, uninstall removes only cairn's entries", () => {
    write(configFile, userConfig);
    write(agentsFile, userAgents);
    installConnector(opencodeConnector, context, options());
    const edited = JSON.parse(read(configFile));
    edited.autoupdate = "notify";
    write(configFile, JSON.stringify(edited, null, 2));
    write(agentsFile, `- Be brief.\n${read(agentsFile)}`);
    expect(actions(uninstallConnector(opencodeConnector, context, options()))).toEqual([
      "removed-entries",
      "removed-entries",
    ]);
    expect(JSON.parse(read(configFile))).toEqual({ ...JSON.parse(userConfig), autoupdate: "notify" });
    expect(read(agentsFile)).toBe(`- Be brief.\n${userAgents}`);
  });

  it("creates missing files (with OpenCode's schema line) and deletes them on uninstall", () => {
    expect(actions(installConnector(opencodeConnector, context, options()))).toEqual(["created", "created"]);
    expect(JSON.parse(read(configFile))).toEqual({
      $schema: "https://opencode.ai/config.json",
      mcp: { cairn: server },
    });
    expect(actions(uninstallConnector(opencodeConnector, context, options()))).toEqual([
      "deleted",
      "deleted",
      "folder-removed",
      "folder-removed",
    ]);
    expect(existsSync(configFile) || existsSync(agentsFile)).toBe(false);
  });

  it("edits an existing opencode.jsonc when there is no opencode.json", () => {
    const jsonc = join(dirname(configFile), "opencode.jsonc");
    write(jsonc, userConfig);
    expect(installConnector(opencodeConnector, context, options()).map((c) => c.file)).toEqual([jsonc, agentsFile]);
    expect(existsSync(configFile)).toBe(false);
    expect(JSON.parse(read(jsonc)).mcp.cairn).toEqual(server);
    uninstallConnector(opencodeConnector, context, options());
    expect(read(jsonc)).toBe(userConfig);
  });

  it("writes through a config linked from a dotfiles folder, leaving the link", () => {
    const target = join(temp.root, "dotfiles", "opencode.json");
    write(target, userConfig);
    mkdirSync(dirname(configFile), { recursive: true });
    symlinkSync(target, configFile);
    installConnector(opencodeConnector, context, options());
    expect(lstatSync(configFile).isSymbolicLink()).toBe(true);
    expect(JSON.parse(read(target)).mcp.cairn).toEqual(server);
    uninstallConnector(opencodeConnector, context, options());
    expect(lstatSync(configFile).isSymbolicLink()).toBe(true);
    expect(read(target)).toBe(userConfig);
  });

  it("refuses a read-only config with one line and changes neither file", () => {
    write(configFile, userConfig);
    write(agentsFile, userAgents);
    chmodSync(agentsFile, 0o444);
    expect(() => installConnector(opencodeConnector, context, options())).toThrow(
      /^[^\n]*AGENTS\.md is read-only \(mode 0444\), so cairn changed nothing; make it writable \(chmod u\+w [^\n]*\) and run 'cairn install opencode' again$/,
    );
    chmodSync(agentsFile, 0o644);
    expect([read(configFile), read(agentsFile)]).toEqual([userConfig, userAgents]);
    expect(backups(configFile)).toEqual([]);
  });

  it("refuses an mcp section it cannot merge into, naming the key", () => {
    write(configFile, '{"mcp": ["x"]}');
    expect(() => installConnector(opencodeConnector, context, options())).toThrow(/mcp is not an object/);
  });
});

describe("cairn install opencode on a config written as JSONC", () => {
  // The config as a person keeps it: comments and trailing commas, as OpenCode's own example has them.
  const readJsoncFixture = (name: string) =>
    readFileSync(join(import.meta.dirname, "..", "fixtures", "opencode", "user-config-jsonc", name), "utf8");
  const commented = readJsoncFixture("opencode.jsonc");

  it("adds mcp.cairn to opencode.jsonc in place, keeping comments and commas, idempotently, and uninstall gives the bytes back", () => {
    const jsonc = join(dirname(configFile), "opencode.jsonc");
    write(jsonc, commented);
    expect(actions(installConnector(opencodeConnector, context, options()))).toEqual(["updated", "created"]);
    expect(existsSync(configFile)).toBe(false);
    const installed = read(jsonc);
    // Only cairn's lines are new; it keeps the trailing comma the user's last server has.
    expect(installed).toBe(readJsoncFixture("opencode.installed.jsonc"));
    expect(installed).toContain('  /* Rules every session reads,\n     on top of AGENTS.md. */\n  "instructions"');
    expect(installed).toContain('"url": "https://jira.example.com/mcp", "enabled": true }, // its // is no comment');
    expect(parseJsonc(installed).mcp.cairn).toEqual(server);
    expect(backups(jsonc)).toEqual([commented]);

    expect(actions(installConnector(opencodeConnector, context, options()))).toEqual(["unchanged", "unchanged"]);
    expect(read(jsonc)).toBe(installed);

    expect(actions(uninstallConnector(opencodeConnector, context, options()))).toEqual(["restored", "deleted"]);
    expect(read(jsonc)).toBe(commented);
  });

  it("in opencode.json too, after a user edit uninstall takes out mcp.cairn and leaves every other byte", () => {
    write(configFile, commented);
    installConnector(opencodeConnector, context, options());
    const userEdit = (text: string) => text.replace('"autoupdate": true,', '"autoupdate": "notify", // ask first');
    write(configFile, userEdit(read(configFile)));
    expect(actions(uninstallConnector(opencodeConnector, context, options()))).toEqual(["removed-entries", "deleted"]);
    expect(read(configFile)).toBe(userEdit(commented));
  });

  it("refuses a config that is not JSON even with comments allowed, with one line naming it, changing neither file", () => {
    const broken = commented.replace('"theme": "opencode",', '"theme": opencode,');
    write(configFile, broken);
    expect(() => installConnector(opencodeConnector, context, options())).toThrow(
      /^[^\n]*opencode\.json is not valid JSON, even with comments allowed \(InvalidSymbol at line 4, column 12\), so cairn changed nothing; fix it and run 'cairn install opencode' again$/,
    );
    expect(read(configFile)).toBe(broken);
    expect(existsSync(agentsFile)).toBe(false);
  });
});
