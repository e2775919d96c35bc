import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { installConnector, uninstallConnector } from "../../src/connectors/applyConnector.js";
import { installCodexServer, uninstallCodexServer } from "../../src/connectors/codexConfigToml.js";
import { codexConnector } from "../../src/connectors/codexConnector.js";
import { codexForwardedEnv } from "../../src/connectors/codexServerEnv.js";
import type { InstallContext } from "../../src/connectors/types.js";
import { type TempHome, tempHome } from "../server/tempHome.js";

let temp: TempHome;
let context: InstallContext;
let configFile: string;
let agentsFile: string;
const options = () => ({ stateDir: join(temp.home, "connectors"), now: () => new Date("2026-05-01T10:00:00Z") });

const userConfig = `# my codex config
model = "gpt-5"
approval_policy = "on-request"

[mcp_servers.github]
command = "gh-mcp"
args = ["--stdio"]

[profiles.fast]
model = "gpt-5-mini"
notes = """
[mcp_servers.cairn]
this is text, not a table
"""
`;
const userAgents = "# Global instructions\n\n- Answer in English.\n";
const server = {
  command: "/opt/node/bin/node",
  args: ["/opt/cairn/dist/cli/main.js", "mcp", "--background-run"],
  env_vars: ["CODEX_HOME", "OPENAI_API_KEY"],
};
const file = "config.toml";

function write(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

const read = (file: string) => readFileSync(file, "utf8");

beforeEach(() => {
  temp = tempHome();
  context = { invocation: { command: "/opt/node/bin/node", args: ["/opt/cairn/dist/cli/main.js"] }, env: temp.env };
  configFile = join(temp.root, ".codex", "config.toml");
  agentsFile = join(temp.root, ".codex", "AGENTS.md");
});

afterEach(() => temp.cleanup());

describe("cairn install codex", () => {
  it("adds [mcp_servers.cairn] and the AGENTS.md block, idempotently, and uninstall restores both byte for byte", () => {
    write(configFile, userConfig);
    write(agentsFile, userAgents);
    expect(installConnector(codexConnector, context, options()).map((c) => c.action)).toEqual(["updated", "updated"]);
    // toml_edit puts the new table next to the other MCP servers; nothing else moves.
    const cairnTable = [
      "[mcp_servers.cairn]",
      'command = "/opt/node/bin/node"',
      'args = ["/opt/cairn/dist/cli/main.js", "mcp", "--background-run"]',
      `env_vars = [${codexForwardedEnv()
        .map((name) => `"${name}"`)
        .join(", ")}]`,
      "",
    ].join("\n");
    expect(read(configFile)).toBe(userConfig.replace("[profiles.fast]", `${cairnTable}\n[profiles.fast]`));
    const agents = read(agentsFile);
    expect(agents.startsWith(`${userAgents}\n<!-- cairn:begin`)).toBe(true);
    expect(agents).toContain("call the `cairn` tool `read` with `memory://root`");
    expect(agents).toContain("/opt/node/bin/node /opt/cairn/dist/cli/main.js inject --cwd .");
    expect(agents.endsWith("<!-- cairn:end -->\n")).toBe(true);

    const installed = [read(configFile), read(agentsFile)];
    expect(installConnector(codexConnector, context, options()).map((c) => c.action)).toEqual([
      "unchanged",
      "unchanged",
    ]);
    expect([read(configFile), read(agentsFile)]).toEqual(installed);

    expect(uninstallConnector(codexConnector, context, options()).map((c) => c.action)).toEqual([
      "restored",
      "restored",
    ]);
    expect(read(configFile)).toBe(userConfig);
    expect(read(agentsFile)).toBe(userAgents);
  });

  it("after the user edits the files, uninstall removes only cairn's block", () => {
    write(configFile, userConfig);
    write(agentsFile, userAgents);
    installConnector(codexConnector, context, options());
    write(configFile, `${read(configFile)}\n[profiles.slow]\nmodel = "gpt-5-pro"\n`);
    write(agentsFile, `- Be brief.\n${read(agentsFile)}`);
    expect(uninstallConnector(codexConnector, context, options()).map((c) => c.action)).toEqual([
      "removed-entries",
      "removed-entries",
    ]);
    expect(read(configFile)).toBe(`${userConfig}\n[profiles.slow]\nmodel = "gpt-5-pro"\n`);
    expect(read(agentsFile)).toBe(`- Be brief.\n${userAgents}`);
  });

  it("creates missing files and deletes them on uninstall", () => {
    expect(installConnector(codexConnector, context, options()).map((c) => c.action)).toEqual(["created", "created"]);
    expect(read(configFile).startsWith("# added by 'cairn install codex'")).toBe(true);
    expect(uninstallConnector(codexConnector, context, options()).map((c) => c.action)).toEqual([
      "deleted",
      "deleted",
      "folder-removed",
    ]);
    expect(existsSync(configFile) || existsSync(agentsFile)).toBe(false);
  });
});

describe("config.toml edit", () => {
  it("updates a cairn table an earlier install wrote, keeping the keys and sub-tables the user added, and leaves the rest alone", () => {
    const text = `[mcp_servers.cairn]\ncommand = "old"\nargs = ["/old/cairn/dist/cli/main.js", "mcp"]\nstartup_timeout_sec = 30 # slow disk\n\n[mcp_servers.cairn.env]\nX = "1"\n\n# other\n[mcp_servers.other]\ncommand = "o"\n`;
    const installed = installCodexServer(text, { server, file });
    expect(installed).toBe(
      [
        "[mcp_servers.cairn]",
        'command = "/opt/node/bin/node"',
        'args = ["/opt/cairn/dist/cli/main.js", "mcp", "--background-run"]',
        "startup_timeout_sec = 30 # slow disk",
        'env_vars = ["CODEX_HOME", "OPENAI_API_KEY"]',
        "",
        "[mcp_servers.cairn.env]",
        'X = "1"',
        "",
        "# other",
        "[mcp_servers.other]",
        'command = "o"',
        "",
      ].join("\n"),
    );
    expect(installCodexServer(installed, { server, file })).toBe(installed);
    expect(uninstallCodexServer(installed, { file })).toBe(`\n# other\n[mcp_servers.other]\ncommand = "o"\n`);
  });

  it("keeps a multi-line string that looks like a cairn table", () => {
    const installed = installCodexServer(userConfig, { server, file });
    expect(installed).toContain('notes = """\n[mcp_servers.cairn]\nthis is text, not a table\n"""\n');
    expect(uninstallCodexServer(installed, { file })).toBe(userConfig);
  });

  it("appends after a file without a final newline and escapes strings", () => {
    const installed = installCodexServer('model = "x"', {
      server: { command: 'C:\\node "x"', args: ["/c/cli/main.js", "mcp"], env_vars: [] },
      file,
    });
    expect(installed).toContain('model = "x"\n\n# added by');
    expect(installed).toContain('command = "C:\\\\node \\"x\\""');
    expect(installed).toContain('args = ["/c/cli/main.js", "mcp"]');
    expect(uninstallCodexServer(installed, { file })).toBe('model = "x"\n');
  });

  it("refuses an mcp_servers that cannot hold a table, naming the file", () => {
    expect(() => installCodexServer(`[[mcp_servers]]\ncommand = "x"\n`, { server, file })).toThrow(
      /^config\.toml: not changed, mcp_servers cannot hold a cairn table there/,
    );
    expect(() => uninstallCodexServer("model = ", { file })).toThrow(
      /^config\.toml: not changed, it is not valid TOML .*; fix the file and run 'cairn uninstall codex' again$/,
    );
  });
});

describe("connector registry", () => {
  it("names the available agents for an unknown one", async () => {
    const { connectorFor } = await import("../../src/connectors/connectors.js");
    expect(connectorFor("codex")).toBe(codexConnector);
    expect(() => connectorFor("vim")).toThrow(
      "no connector for 'vim'; available: codex, claude-code, pi, omp, gemini, opencode",
    );
  });
});
