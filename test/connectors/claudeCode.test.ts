import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { installConnector, uninstallConnector } from "../../src/connectors/applyConnector.js";
import { claudeCodeConnector } from "../../src/connectors/claudeCodeConnector.js";
import type { InstallContext } from "../../src/connectors/types.js";
import { type TempHome, tempHome } from "../server/tempHome.js";

let temp: TempHome;
let context: InstallContext;
let settingsFile: string;
let stateFile: string;
const options = () => ({ stateDir: join(temp.home, "connectors"), now: () => new Date("2026-05-01T10:00:00Z") });

const userSettings = `{
    "permissions": { "allow": ["Bash(npm test:*)"] },
    "hooks": {
        "SessionStart": [
            { "matcher": "startup", "hooks": [ { "type": "command", "command": "echo hello" } ] }
        ],
        "Stop": [ { "hooks": [ { "type": "command", "command": "notify-send done" } ] } ]
    },
    "model": "opus"
}
`;
const userState = `{"numStartups":12,"mcpServers":{"github":{"type":"stdio","command":"gh-mcp","args":[]}},"projects":{"/x":{"allowedTools":[]}}}`;

function write(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

function read(file: string): string {
  return readFileSync(file, "utf8");
}

function backups(file: string): string[] {
  const name = file.split("/").at(-1) ?? "";
  return readdirSync(dirname(file)).filter((entry) => entry.startsWith(`${name}.cairn-backup-`));
}

beforeEach(() => {
  temp = tempHome();
  context = { invocation: { command: "/opt/node/bin/node", args: ["/opt/cairn/dist/cli/main.js"] }, env: temp.env };
  settingsFile = join(temp.root, ".claude", "settings.json");
  stateFile = join(temp.root, ".claude", ".claude.json");
});

afterEach(() => temp.cleanup());

describe("cairn install claude-code", () => {
  it("merges the hook and the MCP server into existing files, idempotently, and uninstall restores them byte for byte", () => {
    write(settingsFile, userSettings);
    write(stateFile, userState);

    const first = installConnector(claudeCodeConnector, context, options());
    expect(first.map((change) => change.action)).toEqual(["updated", "updated"]);
    const settings = JSON.parse(read(settingsFile));
    expect(settings.permissions).toEqual({ allow: ["Bash(npm test:*)"] });
    expect(settings.hooks.Stop).toHaveLength(1);
    expect(settings.hooks.SessionStart).toEqual([
      { matcher: "startup", hooks: [{ type: "command", command: "echo hello" }] },
      {
        hooks: [
          {
            type: "command",
            command: "/opt/node/bin/node /opt/cairn/dist/cli/main.js hook session-start --agent claude-code",
            timeout: 10,
          },
        ],
      },
    ]);
    expect(read(settingsFile)).toMatch(/^\{\n {4}"permissions"/);
    const state = JSON.parse(read(stateFile));
    expect(state.numStartups).toBe(12);
    expect(state.mcpServers).toEqual({
      github: { type: "stdio", command: "gh-mcp", args: [] },
      cairn: { type: "stdio", command: "/opt/node/bin/node", args: ["/opt/cairn/dist/cli/main.js", "mcp"], env: {} },
    });
    expect(backups(settingsFile).map((name) => read(join(dirname(settingsFile), name)))).toEqual([userSettings]);
    expect(backups(stateFile).map((name) => read(join(dirname(stateFile), name)))).toEqual([userState]);

    const installed = [read(settingsFile), read(stateFile)];
    const second = installConnector(claudeCodeConnector, context, options());
    expect(second.map((change) => change.action)).toEqual(["unchanged", "unchanged"]);
    expect([read(settingsFile), read(stateFile)]).toEqual(installed);
    expect(backups(settingsFile)).toHaveLength(1);

    const removed = uninstallConnector(claudeCodeConnector, context, options());
    expect(removed.map((change) => change.action)).toEqual(["restored", "restored"]);
    expect(read(settingsFile)).toBe(userSettings);
    expect(read(stateFile)).toBe(userState);
    expect(existsSync(join(temp.home, "connectors", "claude-code.json"))).toBe(false);
    expect(uninstallConnector(claudeCodeConnector, context, options()).map((c) => c.action)).toEqual([
      "unchanged",
      "unchanged",
    ]);
  });

  it("creates missing files and deletes them again on uninstall", () => {
    const created = installConnector(claudeCodeConnector, context, options());
    expect(created.map((change) => [change.action, change.backup])).toEqual([
      ["created", undefined],
      ["created", undefined],
    ]);
    expect(JSON.parse(read(settingsFile)).hooks.SessionStart).toHaveLength(1);
    expect(uninstallConnector(claudeCodeConnector, context, options()).map((c) => c.action)).toEqual([
      "deleted",
      "deleted",
      "folder-removed",
    ]);
    expect(existsSync(settingsFile) || existsSync(stateFile)).toBe(false);
  });

  it("after the user edits the files, uninstall removes only cairn's entries", () => {
    write(settingsFile, userSettings);
    write(stateFile, userState);
    installConnector(claudeCodeConnector, context, options());
    const edited = JSON.parse(read(settingsFile));
    edited.theme = "dark";
    write(settingsFile, JSON.stringify(edited, null, 4));
    const state = JSON.parse(read(stateFile));
    state.numStartups = 13;
    write(stateFile, JSON.stringify(state));

    const removed = uninstallConnector(claudeCodeConnector, context, options());
    expect(removed.map((change) => change.action)).toEqual(["removed-entries", "removed-entries"]);
    expect(JSON.parse(read(settingsFile))).toEqual({ ...JSON.parse(userSettings), theme: "dark" });
    expect(JSON.parse(read(stateFile))).toEqual({ ...JSON.parse(userState), numStartups: 13 });
  });

  it("replaces its hook when cairn moved, keeping exactly one", () => {
    installConnector(claudeCodeConnector, context, options());
    const moved = { ...context, invocation: { command: "/usr/bin/node", args: ["/srv/my cairn/dist/cli/main.cjs"] } };
    expect(installConnector(claudeCodeConnector, moved, options()).map((c) => c.action)).toEqual([
      "updated",
      "updated",
    ]);
    const hooks = JSON.parse(read(settingsFile)).hooks.SessionStart;
    expect(hooks).toHaveLength(1);
    expect(hooks[0].hooks[0].command).toBe(
      "/usr/bin/node '/srv/my cairn/dist/cli/main.cjs' hook session-start --agent claude-code",
    );
    // Cairn created the file and only cairn changed it since: uninstall removes it.
    expect(uninstallConnector(claudeCodeConnector, moved, options()).map((c) => c.action)).toEqual([
      "deleted",
      "deleted",
    ]);
  });

  it("refuses a file it cannot merge and writes nothing", () => {
    write(settingsFile, "{ not json");
    write(stateFile, userState);
    expect(() => installConnector(claudeCodeConnector, context, options())).toThrow(/settings.json is not valid JSON/);
    expect(read(stateFile)).toBe(userState);
    write(settingsFile, `{"hooks": []}`);
    expect(() => installConnector(claudeCodeConnector, context, options())).toThrow(/hooks is not an object/);
  });
});

describe("cairn install claude-code: the checkpoint hooks", () => {
  // A settings.json as a user keeps it: their own PreCompact and SessionEnd hooks, a matcher, env, and a
  // statusLine, in Claude Code's two-space layout.
  const realSettings = `{
  "$schema": "https://json.schemastore.org/claude-code-settings.json",
  "env": { "DISABLE_TELEMETRY": "1" },
  "permissions": { "allow": ["Bash(git status:*)", "Read(~/notes/**)"], "deny": ["Read(./.env)"] },
  "hooks": {
    "PreCompact": [
      { "matcher": "manual", "hooks": [ { "type": "command", "command": "cp \\"$CLAUDE_PROJECT_DIR\\"/notes.md /tmp/" } ] }
    ],
    "SessionEnd": [ { "hooks": [ { "type": "command", "command": "~/bin/log-session.sh", "timeout": 5 } ] } ]
  },
  "statusLine": { "type": "command", "command": "~/.claude/statusline.sh" },
  "includeCoAuthoredBy": false
}
`;
  const ours = (event: string) => `/opt/node/bin/node /opt/cairn/dist/cli/main.js hook ${event} --agent claude-code`;

  it("adds PreCompact and SessionEnd hooks after the user's, idempotently, and uninstall gives the file back byte for byte", () => {
    write(settingsFile, realSettings);
    expect(installConnector(claudeCodeConnector, context, options())[0]?.action).toBe("updated");
    const settings = JSON.parse(read(settingsFile));
    expect(settings.hooks.PreCompact).toEqual([
      JSON.parse(realSettings).hooks.PreCompact[0],
      { hooks: [{ type: "command", command: ours("pre-compact"), timeout: 10 }] },
    ]);
    expect(settings.hooks.SessionEnd).toEqual([
      JSON.parse(realSettings).hooks.SessionEnd[0],
      { hooks: [{ type: "command", command: ours("session-end"), timeout: 10 }] },
    ]);
    expect(settings.hooks.SessionStart).toEqual([
      { hooks: [{ type: "command", command: ours("session-start"), timeout: 10 }] },
    ]);
    expect(read(settingsFile)).toMatch(/^\{\n {2}"\$schema"/);
    const installed = read(settingsFile);
    expect(installConnector(claudeCodeConnector, context, options())[0]?.action).toBe("unchanged");
    expect(read(settingsFile)).toBe(installed);
    expect(backups(settingsFile)).toHaveLength(1);

    expect(uninstallConnector(claudeCodeConnector, context, options())[0]?.action).toBe("restored");
    expect(read(settingsFile)).toBe(realSettings);
  });

  it("a user's later edit survives uninstall, which removes exactly cairn's three hooks", () => {
    write(settingsFile, realSettings);
    installConnector(claudeCodeConnector, context, options());
    const edited = JSON.parse(read(settingsFile));
    edited.model = "opus";
    write(settingsFile, JSON.stringify(edited, null, 2));
    expect(uninstallConnector(claudeCodeConnector, context, options())[0]?.action).toBe("removed-entries");
    expect(JSON.parse(read(settingsFile))).toEqual({ ...JSON.parse(realSettings), model: "opus" });
  });

  it("an install from before the checkpoint hooks gains them on the next install, its SessionStart hook kept", () => {
    const before = {
      hooks: { SessionStart: [{ hooks: [{ type: "command", command: ours("session-start"), timeout: 10 }] }] },
    };
    write(settingsFile, JSON.stringify(before, null, 2));
    expect(installConnector(claudeCodeConnector, context, options())[0]?.action).toBe("updated");
    const hooks = JSON.parse(read(settingsFile)).hooks;
    expect(hooks.SessionStart).toEqual(before.hooks.SessionStart);
    expect(hooks.PreCompact).toHaveLength(1);
    expect(hooks.SessionEnd).toHaveLength(1);
  });
});
