import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { installConnector, uninstallConnector } from "../../src/connectors/applyConnector.js";
import { claudeCodeConnector } from "../../src/connectors/claudeCodeConnector.js";
import { codexConnector } from "../../src/connectors/codexConnector.js";
import type { Connector, InstallContext } from "../../src/connectors/types.js";
import { type TempHome, tempHome } from "../server/tempHome.js";

let temp: TempHome;
let context: InstallContext;
let settingsFile: string;
let stateFile: string;
const options = () => ({ stateDir: join(temp.home, "connectors"), now: () => new Date("2026-05-01T10:00:00Z") });

function write(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

const read = (file: string) => readFileSync(file, "utf8");

/** A dotfiles checkout holding the real file, and the agent's path a symlink to it. */
function linkIntoDotfiles(file: string, text: string): string {
  const target = join(temp.root, "dotfiles", file.split("/").at(-1) ?? "file");
  write(target, text);
  mkdirSync(dirname(file), { recursive: true });
  symlinkSync(target, file);
  return target;
}

/**
 * The agent writing the file between cairn's read and cairn's write: the connector's transformation
 * runs after the read, so making it write the file once, on its `onCall`-th call, reproduces the race
 * without timing. (Uninstall computes its edit twice: once to check that the file may be written,
 * then on the content it writes.)
 */
function racing(
  connector: Connector,
  file: string,
  agentWrite: (current: string | null) => string,
  onCall = 1,
): Connector {
  let calls = 0;
  const race = (current: string | null) => {
    calls += 1;
    if (calls === onCall) writeFileSync(file, agentWrite(current));
  };
  return {
    agent: connector.agent,
    edits: (ctx) =>
      connector.edits(ctx).map((edit) =>
        edit.file !== file
          ? edit
          : {
              ...edit,
              install: (current) => {
                const next = edit.install(current);
                race(current);
                return next;
              },
              uninstall: (current) => {
                const next = edit.uninstall(current);
                race(current);
                return next;
              },
            },
      ),
  };
}

beforeEach(() => {
  temp = tempHome();
  context = { invocation: { command: "/opt/node/bin/node", args: ["/opt/cairn/dist/cli/main.js"] }, env: temp.env };
  settingsFile = join(temp.root, ".claude", "settings.json");
  stateFile = join(temp.root, ".claude", ".claude.json");
});

afterEach(() => {
  for (const dir of [join(temp.root, ".claude"), join(temp.root, "dotfiles"), join(temp.root, ".codex")]) {
    if (existsSync(dir)) chmodSync(dir, 0o700);
  }
  temp.cleanup();
});

describe("connector writes through a symlinked agent config", () => {
  it("claude-code: the link stays a link, its target gets the hook, and uninstall takes it out of the target", () => {
    const target = linkIntoDotfiles(settingsFile, `{ "model": "opus" }\n`);
    installConnector(claudeCodeConnector, context, options());
    expect(lstatSync(settingsFile).isSymbolicLink()).toBe(true);
    expect(readlinkSync(settingsFile)).toBe(target);
    expect(JSON.parse(read(target)).hooks.SessionStart).toHaveLength(1);
    expect(JSON.parse(read(target)).model).toBe("opus");
    // The temp file of the atomic write went to the target's folder and did not stay.
    expect(readdirSync(dirname(target))).toEqual(["settings.json"]);

    uninstallConnector(claudeCodeConnector, context, options());
    expect(lstatSync(settingsFile).isSymbolicLink()).toBe(true);
    expect(JSON.parse(read(target))).toEqual({ model: "opus" });
  });

  it("codex: config.toml and AGENTS.md linked (AGENTS.md through a relative link) stay links both ways", () => {
    const config = join(temp.root, ".codex", "config.toml");
    const agents = join(temp.root, ".codex", "AGENTS.md");
    const configTarget = linkIntoDotfiles(config, `model = "gpt-5"\n`);
    write(join(temp.root, "dotfiles", "AGENTS.md"), "# mine\n");
    symlinkSync(join("..", "dotfiles", "AGENTS.md"), agents);

    installConnector(codexConnector, context, options());
    expect(lstatSync(config).isSymbolicLink() && lstatSync(agents).isSymbolicLink()).toBe(true);
    expect(read(configTarget)).toContain("[mcp_servers.cairn]");
    expect(read(join(temp.root, "dotfiles", "AGENTS.md"))).toContain("cairn:begin");

    uninstallConnector(codexConnector, context, options());
    expect(lstatSync(config).isSymbolicLink() && lstatSync(agents).isSymbolicLink()).toBe(true);
    expect(read(configTarget)).toBe(`model = "gpt-5"\n`);
    expect(read(join(temp.root, "dotfiles", "AGENTS.md"))).toBe("# mine\n");
  });

  it("a link to a file that does not exist yet: the file is created at the target, the link kept", () => {
    const target = join(temp.root, "dotfiles", "claude.json");
    mkdirSync(dirname(target), { recursive: true });
    mkdirSync(dirname(stateFile), { recursive: true });
    symlinkSync(target, stateFile);
    installConnector(claudeCodeConnector, context, options());
    expect(lstatSync(stateFile).isSymbolicLink()).toBe(true);
    expect(JSON.parse(read(target)).mcpServers.cairn.command).toBe("/opt/node/bin/node");
    uninstallConnector(claudeCodeConnector, context, options());
    // cairn created the file, but the user's link names it: the link and the file stay, without cairn.
    expect(lstatSync(stateFile).isSymbolicLink()).toBe(true);
    expect(JSON.parse(read(target)).mcpServers ?? {}).not.toHaveProperty("cairn");
  });
});

describe("connector refuses a read-only agent config", () => {
  it("a read-only file that needs no change is no obstacle", () => {
    write(settingsFile, `{ "model": "opus" }\n`);
    installConnector(claudeCodeConnector, context, options());
    chmodSync(settingsFile, 0o444);
    expect(installConnector(claudeCodeConnector, context, options()).map((change) => change.action)).toEqual([
      "unchanged",
      "unchanged",
    ]);
  });

  // Mode bits decide, so this holds when the tests run as root too (root could write the file).
  it("install changes nothing anywhere and says what to do", () => {
    write(settingsFile, `{ "model": "opus" }\n`);
    write(stateFile, `{ "numStartups": 3 }\n`);
    chmodSync(stateFile, 0o444);
    expect(() => installConnector(claudeCodeConnector, context, options())).toThrow(
      /\.claude\.json is read-only \(mode 0444\), so cairn changed nothing; make it writable \(chmod u\+w .*\) and run 'cairn install claude-code' again/,
    );
    expect(read(settingsFile)).toBe(`{ "model": "opus" }\n`);
    expect(read(stateFile)).toBe(`{ "numStartups": 3 }\n`);
    expect(statSync(stateFile).mode & 0o777).toBe(0o444);
    expect(readdirSync(dirname(settingsFile)).sort()).toEqual([".claude.json", "settings.json"]);
    expect(existsSync(join(temp.home, "connectors", "claude-code.json"))).toBe(false);
  });

  it("a read-only link target is refused and named; uninstall refuses too", () => {
    const target = linkIntoDotfiles(settingsFile, `{ "model": "opus" }\n`);
    installConnector(claudeCodeConnector, context, options());
    const installed = read(target);
    chmodSync(target, 0o444);
    expect(() => uninstallConnector(claudeCodeConnector, context, options())).toThrow(
      `${settingsFile} (a link to ${target}) is read-only (mode 0444), so cairn changed nothing; make it writable (chmod u+w ${target}) and run 'cairn uninstall claude-code' again`,
    );
    expect(read(target)).toBe(installed);
    expect(existsSync(join(temp.home, "connectors", "claude-code.json"))).toBe(true);
  });
});

describe("connector keeps a write the agent made between cairn's read and cairn's write", () => {
  it("install applies cairn's entry again to the agent's new content", () => {
    write(stateFile, `{"numStartups":1,"projects":{}}`);
    const agentWrite = () => `{"numStartups":2,"projects":{"/new":{"allowedTools":[]}}}`;
    installConnector(racing(claudeCodeConnector, stateFile, agentWrite), context, options());
    const state = JSON.parse(read(stateFile));
    expect(state.numStartups).toBe(2);
    expect(state.projects).toEqual({ "/new": { allowedTools: [] } });
    expect(state.mcpServers.cairn.command).toBe("/opt/node/bin/node");

    // The restore point is the content cairn's entry was added to, so uninstall gives that back.
    uninstallConnector(claudeCodeConnector, context, options());
    expect(JSON.parse(read(stateFile))).toEqual({ numStartups: 2, projects: { "/new": { allowedTools: [] } } });
  });

  it("uninstall takes cairn's entry out of the agent's new content instead of restoring the older backup", () => {
    write(stateFile, `{"numStartups":1}`);
    installConnector(claudeCodeConnector, context, options());
    const agentWrite = (current: string | null) =>
      JSON.stringify({ ...JSON.parse(current ?? "{}"), numStartups: 9, tipsHistory: { x: 1 } });
    uninstallConnector(racing(claudeCodeConnector, stateFile, agentWrite, 2), context, options());
    const state = JSON.parse(read(stateFile));
    expect(state.numStartups).toBe(9);
    expect(state.tipsHistory).toEqual({ x: 1 });
    expect(state.mcpServers ?? {}).not.toHaveProperty("cairn");
  });
});
