import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { installConnector, uninstallConnector } from "../../src/connectors/applyConnector.js";
import { claudeCodeConnector } from "../../src/connectors/claudeCodeConnector.js";
import { codexConnector } from "../../src/connectors/codexConnector.js";
import { geminiConnector } from "../../src/connectors/geminiConnector.js";
import { opencodeConnector } from "../../src/connectors/opencodeConnector.js";
import type { Connector } from "../../src/connectors/types.js";
import { actionsOf, readConfig as read, useConnectorHome, writeConfig as write } from "../helpers/connectorFiles.js";

// An entry of cairn's name that `cairn install` did not write is the user's: install refuses to replace
// it (it would be lost at uninstall, kept only in a backup) and uninstall never removes it.

const fixture = (...path: string[]) => readFileSync(join(import.meta.dirname, "..", "fixtures", ...path), "utf8");
const geminiSettings = fixture("gemini", "user-settings", "settings.json");
const opencodeConfig = fixture("opencode", "user-config", "opencode.json");
const geminiCommented = fixture("gemini", "user-settings-jsonc", "settings.json");
const opencodeCommented = fixture("opencode", "user-config-jsonc", "opencode.jsonc");

const home = useConnectorHome();

/** The user's own server named `cairn` (another tool of that name), as each agent's config writes it. */
const cases: Array<{
  agent: string;
  label?: string;
  connector: Connector;
  file: () => string;
  text: () => string;
  what: string;
}> = [
  {
    agent: "codex",
    connector: codexConnector,
    file: () => join(home.temp.root, ".codex", "config.toml"),
    text: () =>
      `model = "gpt-5"\n\n[mcp_servers.cairn]\ncommand = 'npx'   # my notes server\nargs = ["-y", "cairn-notes-mcp"]\nstartup_timeout_sec = 20\n`,
    what: "an MCP server named 'cairn' \\(\\[mcp_servers\\.cairn\\]\\)",
  },
  {
    agent: "claude-code",
    connector: claudeCodeConnector,
    file: () => join(home.temp.root, ".claude", ".claude.json"),
    text: () => `{"numStartups":3,"mcpServers":{"cairn":{"type":"stdio","command":"cairn-notes","args":["serve"]}}}`,
    what: "an MCP server named 'cairn' \\(mcpServers\\.cairn\\)",
  },
  {
    agent: "gemini",
    connector: geminiConnector,
    file: () => join(home.temp.root, ".gemini-home", ".gemini", "settings.json"),
    text: () =>
      geminiSettings.replace(
        '"mcpServers": {\n',
        '"mcpServers": {\n    "cairn": {\n      "command": "python",\n      "args": ["-m", "cairn_notes"]\n    },\n',
      ),
    what: "an MCP server named 'cairn' \\(mcpServers\\.cairn\\)",
  },
  {
    agent: "opencode",
    connector: opencodeConnector,
    file: () => join(home.temp.root, ".config", "opencode", "opencode.json"),
    text: () =>
      opencodeConfig.replace(
        '"mcp": {\n',
        '"mcp": {\n    "cairn": {\n      "type": "remote",\n      "url": "https://cairn.example.com/mcp"\n    },\n',
      ),
    what: "an MCP server named 'cairn' \\(mcp\\.cairn\\)",
  },
  {
    agent: "gemini",
    label: "gemini, settings with comments",
    connector: geminiConnector,
    file: () => join(home.temp.root, ".gemini-home", ".gemini", "settings.json"),
    text: () =>
      geminiCommented.replace(
        '"mcpServers": {\n',
        '"mcpServers": {\n    "cairn": { "command": "python", "args": ["-m", "cairn_notes"] }, // my notes\n',
      ),
    what: "an MCP server named 'cairn' \\(mcpServers\\.cairn\\)",
  },
  {
    agent: "opencode",
    label: "opencode, opencode.jsonc",
    connector: opencodeConnector,
    file: () => join(home.temp.root, ".config", "opencode", "opencode.jsonc"),
    text: () =>
      opencodeCommented.replace(
        '"mcp": {\n',
        '"mcp": {\n    /* my notes */ "cairn": { "type": "remote", "url": "https://cairn.example.com/mcp" },\n',
      ),
    what: "an MCP server named 'cairn' \\(mcp\\.cairn\\)",
  },
];

describe("an MCP server of cairn's name that cairn did not write", () => {
  for (const { agent, label, connector, file, text, what } of cases) {
    it(`${label ?? agent}: install refuses it with one line and writes nothing; uninstall leaves it`, () => {
      const user = text();
      expect(user).toContain("cairn");
      write(file(), user);
      const refusal = new RegExp(
        `^${file().replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} already has ${what} that 'cairn install' did not write, so cairn changed nothing; rename or remove it and run 'cairn install ${agent}' again$`,
      );
      expect(() => installConnector(connector, home.context, home.options())).toThrow(refusal);
      expect(read(file())).toBe(user);
      expect(readdirSync(dirname(file()))).toEqual([file().split("/").at(-1)]);
      expect(readdirSync(home.temp.home)).not.toContain("connectors");

      // Without an install record (or after the user added it), uninstall is no threat to it either.
      uninstallConnector(connector, home.context, home.options());
      expect(read(file())).toBe(user);
    });
  }

  it("a cairn entry an earlier install wrote from another folder is still cairn's: replaced, then removed", () => {
    const stateFile = join(home.temp.root, ".claude", ".claude.json");
    const old = `{"mcpServers":{"cairn":{"type":"stdio","command":"/old/node","args":["/old/cairn/dist/cli/main.js","--home","/old/home","mcp"],"env":{}}}}`;
    write(stateFile, old);
    installConnector(claudeCodeConnector, home.context, home.options());
    expect(JSON.parse(read(stateFile)).mcpServers.cairn.args).toEqual(["/opt/cairn/dist/cli/main.cjs", "mcp"]);
    // Claude Code rewrote the file meanwhile, so uninstall removes cairn's entry instead of restoring.
    write(stateFile, read(stateFile).replace('"mcpServers"', '"numStartups": 4,\n  "mcpServers"'));
    uninstallConnector(claudeCodeConnector, home.context, home.options());
    expect(JSON.parse(read(stateFile))).toEqual({ numStartups: 4 });
  });
});

describe("the user's hooks on cairn's events", () => {
  it("claude-code: a hook the user wrote to run cairn by hand is refused, not doubled or taken over", () => {
    const settingsFile = join(home.temp.root, ".claude", "settings.json");
    const user = `{\n  "hooks": {\n    "SessionStart": [\n      { "hooks": [ { "type": "command", "command": "echo hi" }, { "type": "command", "command": "cairn hook session-start --agent claude-code" } ] }\n    ]\n  }\n}\n`;
    write(settingsFile, user);
    expect(() => installConnector(claudeCodeConnector, home.context, home.options())).toThrow(
      /settings\.json already has a SessionStart hook running 'hook session-start --agent claude-code' \(cairn hook session-start --agent claude-code\) that 'cairn install' did not write, so cairn changed nothing; rename or remove it and run 'cairn install claude-code' again$/,
    );
    expect(read(settingsFile)).toBe(user);
    uninstallConnector(claudeCodeConnector, home.context, home.options());
    expect(read(settingsFile)).toBe(user);
  });

  it("cairn's own hooks are recognized through any quoting its paths need", () => {
    const settingsFile = join(home.temp.root, ".claude", "settings.json");
    const odd = {
      ...home.context,
      invocation: { command: "/opt/my node/node", args: ["/home/o'neil/cairn/dist/cli/main.cjs", "--home", "/a b"] },
    };
    installConnector(claudeCodeConnector, odd, home.options());
    expect(read(settingsFile)).toContain(`'/home/o'\\\\''neil/cairn/dist/cli/main.cjs' --home '/a b' hook`);
    expect(actionsOf(installConnector(claudeCodeConnector, odd, home.options()))).toEqual(["unchanged", "unchanged"]);
    write(settingsFile, read(settingsFile).replace("{", '{\n  "model": "opus",'));
    uninstallConnector(claudeCodeConnector, odd, home.options());
    expect(JSON.parse(read(settingsFile))).toEqual({ model: "opus" });
  });

  it("gemini: the user's SessionStart hook and servers come back byte for byte after the agent wrote the file", () => {
    const settingsFile = join(home.temp.root, ".gemini-home", ".gemini", "settings.json");
    write(settingsFile, geminiSettings);
    installConnector(geminiConnector, home.context, home.options());
    // Gemini CLI saves a setting while cairn is installed: the backup is no longer the file to give back.
    write(settingsFile, read(settingsFile).replace('"theme": "GitHub"', '"theme": "Dracula"'));
    expect(actionsOf(uninstallConnector(geminiConnector, home.context, home.options()))).toEqual(["removed-entries"]);
    expect(read(settingsFile)).toBe(geminiSettings.replace('"theme": "GitHub"', '"theme": "Dracula"'));
  });

  it("opencode: the user's servers come back byte for byte after the agent wrote the file", () => {
    const configFile = join(home.temp.root, ".config", "opencode", "opencode.json");
    write(configFile, opencodeConfig);
    installConnector(opencodeConnector, home.context, home.options());
    write(configFile, read(configFile).replace('"autoupdate": true', '"autoupdate": false'));
    uninstallConnector(opencodeConnector, home.context, home.options());
    expect(read(configFile)).toBe(opencodeConfig.replace('"autoupdate": true', '"autoupdate": false'));
  });
});
