import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { initSync, parse } from "@rainbowatcher/toml-edit-js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { installConnector, uninstallConnector } from "../../src/connectors/applyConnector.js";
import { codexConnector } from "../../src/connectors/codexConnector.js";
import type { InstallContext } from "../../src/connectors/types.js";
import { type TempHome, tempHome } from "../server/tempHome.js";

// Codex reads config.toml with toml_edit; the same parser (as WebAssembly) is the oracle here.
initSync();
const toml = (text: string) => parse(text) as Record<string, Record<string, Record<string, unknown>>>;

let temp: TempHome;
let context: InstallContext;
let configFile: string;
const options = () => ({ stateDir: join(temp.home, "connectors"), now: () => new Date("2026-05-01T10:00:00Z") });

function write(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}
const read = (file: string) => readFileSync(file, "utf8");

/** Installs, checks Codex can read the result, and returns what Codex sees without cairn. */
function installAndParse(text: string) {
  write(configFile, text);
  installConnector(codexConnector, context, options());
  const installed = read(configFile);
  const parsed = toml(installed);
  const cairn = parsed.mcp_servers?.cairn;
  delete parsed.mcp_servers?.cairn;
  if (parsed.mcp_servers && Object.keys(parsed.mcp_servers).length === 0) delete parsed.mcp_servers;
  return { installed, cairn, rest: parsed };
}

beforeEach(() => {
  temp = tempHome();
  context = {
    invocation: { command: "/opt/node/bin/node", args: ["/opt/cairn/dist/cli/main.js"] },
    env: { ...temp.env, OPENAI_API_KEY: "sk-secret-value-123" },
  };
  configFile = join(temp.root, ".codex", "config.toml");
});

afterEach(() => temp.cleanup());

describe("config.toml: nothing of the user's is lost, and Codex can always read the result", () => {
  it("keeps project trust tables (POSIX, Windows and non-ASCII paths) after a cairn table an earlier install wrote", () => {
    const user = [
      "# trust",
      'model = "gpt-5"',
      "",
      "[mcp_servers.cairn]",
      'command = "/old/node"',
      'args = ["/old/cairn/dist/cli/main.js", "mcp", "--background-run"]',
      "",
      '[projects."/home/me/repo"]',
      'trust_level = "trusted"',
      "",
      "[projects.'C:\\Users\\me\\repo']",
      'trust_level = "trusted"',
      "",
      '[projects."/home/me/café-ünï"] # accents',
      'trust_level = "trusted"',
      "",
    ].join("\n");
    const { installed, cairn, rest } = installAndParse(user);
    expect(cairn).toMatchObject({ command: "/opt/node/bin/node" });
    expect(Object.keys(rest.projects ?? {})).toEqual(["/home/me/repo", "C:\\Users\\me\\repo", "/home/me/café-ünï"]);
    expect(installed).toContain("[projects.'C:\\Users\\me\\repo']");
    expect(installed).toContain('[projects."/home/me/café-ünï"] # accents');
    expect(installed).toContain("# trust\n");
  });

  it("adds cairn inside an inline mcp_servers table instead of a second definition", () => {
    const { cairn, rest } = installAndParse('mcp_servers = { other = { command = "x" } }\n');
    expect(cairn).toMatchObject({ command: "/opt/node/bin/node" });
    expect(rest).toEqual({ mcp_servers: { other: { command: "x" } } });
  });

  it("replaces an inline cairn entry under [mcp_servers] and keeps the other servers", () => {
    const { cairn, rest } = installAndParse(
      `[mcp_servers]\ncairn = { command = "n", args = ["/c/cli/main.js", "mcp"] }\nother = { command = "x" }\n`,
    );
    expect(cairn).toMatchObject({ command: "/opt/node/bin/node" });
    expect(rest).toEqual({ mcp_servers: { other: { command: "x" } } });
  });

  it("is not fooled by a ''' string holding \"\"\" before a cairn table", () => {
    const user = `[profiles.fast]\nnotes = '''\nhas """ inside\n'''\n\n[mcp_servers.cairn]\ncommand = "n"\nargs = ["/c/cli/main.cjs", "mcp"]\n`;
    const { cairn, rest } = installAndParse(user);
    expect(cairn).toMatchObject({ command: "/opt/node/bin/node" });
    expect(rest).toEqual({ profiles: { fast: { notes: 'has """ inside\n' } } });
  });

  it("refuses a file that is not valid TOML with one line naming it, and writes nothing at all", () => {
    const broken = 'model = "gpt-5"\nmodel = "again"\n';
    write(configFile, broken);
    expect(() => installConnector(codexConnector, context, options())).toThrow(
      new RegExp(
        `^${configFile.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: not changed, it is not valid TOML \\(.*line 2.*duplicate key\\); fix the file and run 'cairn install codex' again$`,
      ),
    );
    expect(read(configFile)).toBe(broken);
    expect(readdirSync(dirname(configFile))).toEqual(["config.toml"]);
  });

  it("uninstall removes exactly cairn's table, wherever it sits, and keeps comments around it", () => {
    const user = `# top\n[mcp_servers.github]\ncommand = "gh"\n\n# keep me\n[profiles.fast]\nmodel = "m"\n`;
    write(configFile, user);
    installConnector(codexConnector, context, options());
    // The user edits the file afterwards, so uninstall cannot restore the backup and must edit.
    write(configFile, read(configFile).replace('model = "m"', 'model = "m2"'));
    expect(uninstallConnector(codexConnector, context, options()).map((c) => c.action)).toContain("removed-entries");
    expect(read(configFile)).toBe(user.replace('model = "m"', 'model = "m2"'));
  });

  it("keeps Windows line endings", () => {
    const { installed } = installAndParse('model = "x"\r\n\r\n[profiles.a]\r\nmodel = "y"\r\n');
    expect(installed.replace(/\r\n/g, "")).not.toContain("\n");
  });

  it("replaces the marked block of earlier versions, markers included", () => {
    const old = [
      'model = "x"',
      "",
      "# >>> cairn: added by 'cairn install codex'; 'cairn uninstall codex' removes it >>>",
      "[mcp_servers.cairn]",
      'command = "old"',
      'args = ["/old/cairn/dist/cli/main.js", "mcp"]',
      "# <<< cairn <<<",
      "",
    ].join("\n");
    const { installed, cairn } = installAndParse(old);
    expect(cairn).toMatchObject({ command: "/opt/node/bin/node" });
    expect(installed).not.toContain(">>>");
    expect(installed).not.toContain("<<<");
  });
});

describe("config.toml: what Codex passes to cairn's MCP server", () => {
  it("forwards the variables cairn needs by name and never writes a key's value", () => {
    const { installed, cairn } = installAndParse('model = "x"\n');
    const forwarded = (cairn as { env_vars: string[] }).env_vars;
    for (const name of [
      "OPENAI_API_KEY",
      "ANTHROPIC_API_KEY",
      "CODEX_HOME",
      "CAIRN_HOME",
      "CLAUDE_CONFIG_DIR",
      "CAIRN_LLM_API_KEY",
      "CAIRN_MEMORIES_ENABLED",
      "CAIRN_INTERNAL",
      "HTTPS_PROXY",
    ]) {
      expect(forwarded).toContain(name);
    }
    expect(installed).not.toContain("sk-secret-value-123");
    expect(cairn).not.toHaveProperty("env");
  });
});
