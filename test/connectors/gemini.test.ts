import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, symlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { parse as parseJsonc } from "jsonc-parser";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { installConnector, uninstallConnector } from "../../src/connectors/applyConnector.js";
import { geminiConnector, geminiHooksOffWarning } from "../../src/connectors/geminiConnector.js";
import { renderForAgent } from "../../src/connectors/sessionStartHook.js";
import type { InstallContext } from "../../src/connectors/types.js";
import {
  actionsOf as actions,
  backupsOf as backups,
  readConfig as read,
  writeConfig as write,
} from "../helpers/connectorFiles.js";
import { type TempHome, tempHome } from "../server/tempHome.js";

// A user settings.json as Gemini CLI documents and writes it (provenance: the fixture's README.md).
const fixture = readFileSync(
  join(import.meta.dirname, "..", "fixtures", "gemini", "user-settings", "settings.json"),
  "utf8",
);
const hookCommand = "/opt/node/bin/node /opt/cairn/dist/cli/main.js hook session-start --agent gemini";

let temp: TempHome;
let context: InstallContext;
let settingsFile: string;
const options = () => ({ stateDir: join(temp.home, "connectors"), now: () => new Date("2026-05-01T10:00:00Z") });

beforeEach(() => {
  temp = tempHome();
  context = { invocation: { command: "/opt/node/bin/node", args: ["/opt/cairn/dist/cli/main.js"] }, env: temp.env };
  // tempHome sets GEMINI_CLI_HOME, under which Gemini CLI keeps its `.gemini` folder.
  settingsFile = join(temp.root, ".gemini-home", ".gemini", "settings.json");
});

afterEach(() => temp.cleanup());

describe("cairn install gemini", () => {
  it("adds the SessionStart hook and mcpServers.cairn, idempotently, and uninstall restores the file byte for byte", () => {
    write(settingsFile, fixture);
    expect(actions(installConnector(geminiConnector, context, options()))).toEqual(["updated"]);
    const installed = read(settingsFile);
    const settings = JSON.parse(installed);
    const user = JSON.parse(fixture);
    expect(settings.hooks.SessionStart).toEqual([
      ...user.hooks.SessionStart,
      { hooks: [{ name: "cairn-memory", type: "command", command: hookCommand, timeout: 10000 }] },
    ]);
    expect(settings.hooks.BeforeTool).toEqual(user.hooks.BeforeTool);
    expect(settings.mcpServers).toEqual({
      ...user.mcpServers,
      cairn: { command: "/opt/node/bin/node", args: ["/opt/cairn/dist/cli/main.js", "mcp"] },
    });
    // The user's lines are all still there, in order and unchanged: cairn only inserted its own.
    const lines = installed.split("\n");
    let at = 0;
    for (const line of fixture.split("\n")) {
      at = lines.indexOf(line, at);
      expect(at, line).toBeGreaterThanOrEqual(0);
    }
    expect(backups(settingsFile)).toEqual([fixture]);

    expect(actions(installConnector(geminiConnector, context, options()))).toEqual(["unchanged"]);
    expect(read(settingsFile)).toBe(installed);
    expect(backups(settingsFile)).toHaveLength(1);

    expect(actions(uninstallConnector(geminiConnector, context, options()))).toEqual(["restored"]);
    expect(read(settingsFile)).toBe(fixture);
    expect(existsSync(join(temp.home, "connectors", "gemini.json"))).toBe(false);
    expect(actions(uninstallConnector(geminiConnector, context, options()))).toEqual(["unchanged"]);
  });

  it("adds PreCompress and SessionEnd hooks that write session checkpoints, and removes them again", () => {
    write(settingsFile, fixture);
    installConnector(geminiConnector, context, options());
    const hooks = JSON.parse(read(settingsFile)).hooks;
    const base = "/opt/node/bin/node /opt/cairn/dist/cli/main.js hook";
    expect(hooks.PreCompress).toEqual([
      {
        hooks: [
          {
            name: "cairn-checkpoint-compress",
            type: "command",
            command: `${base} pre-compact --agent gemini`,
            timeout: 10000,
          },
        ],
      },
    ]);
    expect(hooks.SessionEnd).toEqual([
      {
        hooks: [
          {
            name: "cairn-checkpoint-end",
            type: "command",
            command: `${base} session-end --agent gemini`,
            timeout: 10000,
          },
        ],
      },
    ]);
    write(settingsFile, `${read(settingsFile)}\n`);
    expect(actions(uninstallConnector(geminiConnector, context, options()))).toEqual(["removed-entries"]);
    expect(JSON.parse(read(settingsFile))).toEqual(JSON.parse(fixture));
  });

  it("after the user edits settings.json, uninstall removes only cairn's entries", () => {
    write(settingsFile, fixture);
    installConnector(geminiConnector, context, options());
    const edited = JSON.parse(read(settingsFile));
    edited.ui.theme = "Dracula";
    write(settingsFile, JSON.stringify(edited, null, 2));
    expect(actions(uninstallConnector(geminiConnector, context, options()))).toEqual(["removed-entries"]);
    const user = JSON.parse(fixture);
    expect(JSON.parse(read(settingsFile))).toEqual({ ...user, ui: { ...user.ui, theme: "Dracula" } });
  });

  it("creates a missing settings.json and deletes it again on uninstall", () => {
    expect(installConnector(geminiConnector, context, options()).map((c) => [c.action, c.backup])).toEqual([
      ["created", undefined],
    ]);
    expect(JSON.parse(read(settingsFile)).hooks.SessionStart).toHaveLength(1);
    // GEMINI_CLI_HOME's folder and the .gemini in it were both made by the install.
    expect(actions(uninstallConnector(geminiConnector, context, options()))).toEqual([
      "deleted",
      "folder-removed",
      "folder-removed",
    ]);
    expect(existsSync(settingsFile)).toBe(false);
  });

  it("replaces its hook and server when cairn moved, keeping exactly one of each", () => {
    write(settingsFile, fixture);
    installConnector(geminiConnector, context, options());
    const moved = { ...context, invocation: { command: "/usr/bin/node", args: ["/srv/my cairn/dist/cli/main.cjs"] } };
    expect(actions(installConnector(geminiConnector, moved, options()))).toEqual(["updated"]);
    const settings = JSON.parse(read(settingsFile));
    const ours = settings.hooks.SessionStart.flatMap((group: { hooks: { name?: string }[] }) =>
      group.hooks.filter((hook) => hook.name === "cairn-memory"),
    );
    expect(ours.map((hook: { command: string }) => hook.command)).toEqual([
      "/usr/bin/node '/srv/my cairn/dist/cli/main.cjs' hook session-start --agent gemini",
    ]);
    expect(settings.mcpServers.cairn.args).toEqual(["/srv/my cairn/dist/cli/main.cjs", "mcp"]);
    expect(actions(uninstallConnector(geminiConnector, moved, options()))).toEqual(["restored"]);
    expect(read(settingsFile)).toBe(fixture);
  });

  it("writes through a settings.json linked from a dotfiles folder, leaving the link", () => {
    const target = join(temp.root, "dotfiles", "gemini-settings.json");
    write(target, fixture);
    mkdirSync(dirname(settingsFile), { recursive: true });
    symlinkSync(target, settingsFile);
    installConnector(geminiConnector, context, options());
    expect(lstatSync(settingsFile).isSymbolicLink()).toBe(true);
    expect(JSON.parse(read(target)).mcpServers.cairn).toBeDefined();
    uninstallConnector(geminiConnector, context, options());
    expect(lstatSync(settingsFile).isSymbolicLink()).toBe(true);
    expect(read(target)).toBe(fixture);
  });

  it("refuses a read-only settings.json with one line and changes nothing", () => {
    write(settingsFile, fixture);
    chmodSync(settingsFile, 0o444);
    expect(() => installConnector(geminiConnector, context, options())).toThrow(
      /^[^\n]*settings\.json is read-only \(mode 0444\), so cairn changed nothing; make it writable \(chmod u\+w [^\n]*\) and run 'cairn install gemini' again$/,
    );
    chmodSync(settingsFile, 0o644);
    expect(read(settingsFile)).toBe(fixture);
    expect(backups(settingsFile)).toEqual([]);
  });

  it("refuses hooks it cannot merge into, naming the key", () => {
    write(settingsFile, '{"hooks": {"SessionStart": {}}}');
    expect(() => installConnector(geminiConnector, context, options())).toThrow(/hooks\.SessionStart is not a list/);
    write(settingsFile, '{"mcpServers": []}');
    expect(() => installConnector(geminiConnector, context, options())).toThrow(/mcpServers is not an object/);
  });
});

describe("cairn install gemini on a settings.json written with comments", () => {
  // The same settings as a person keeps them by hand: `//` and `/* */` comments, lists on one line.
  const readJsoncFixture = (name: string) =>
    readFileSync(join(import.meta.dirname, "..", "fixtures", "gemini", "user-settings-jsonc", name), "utf8");
  const commented = readJsoncFixture("settings.json");

  it("adds cairn's entries in place, keeping every comment and line, idempotently, and uninstall gives the bytes back", () => {
    write(settingsFile, commented);
    expect(actions(installConnector(geminiConnector, context, options()))).toEqual(["updated"]);
    const installed = read(settingsFile);
    // Only cairn's lines are new, and one comma after the group its own now follows.
    expect(installed).toBe(readJsoncFixture("settings.installed.json"));
    expect(installed).toContain('  /*\n   * Light theme by day; "Dracula" at night.\n   */\n  "ui": {');
    expect(installed).toContain('"otlpEndpoint": "http://localhost:4317" // a URL: its // is no comment');
    const settings = parseJsonc(installed);
    expect(settings.mcpServers.cairn).toEqual({
      command: "/opt/node/bin/node",
      args: ["/opt/cairn/dist/cli/main.js", "mcp"],
    });
    expect(settings.hooks.SessionStart.at(-1)).toEqual({
      hooks: [{ name: "cairn-memory", type: "command", command: hookCommand, timeout: 10000 }],
    });
    expect(Object.keys(settings.hooks)).toEqual(["SessionStart", "PreCompress", "SessionEnd"]);
    expect(backups(settingsFile)).toEqual([commented]);

    expect(actions(installConnector(geminiConnector, context, options()))).toEqual(["unchanged"]);
    expect(read(settingsFile)).toBe(installed);
    expect(backups(settingsFile)).toHaveLength(1);

    expect(actions(uninstallConnector(geminiConnector, context, options()))).toEqual(["restored"]);
    expect(read(settingsFile)).toBe(commented);
  });

  it("after the user edits it, uninstall takes out cairn's entries and leaves every other byte as the user left it", () => {
    write(settingsFile, commented);
    installConnector(geminiConnector, context, options());
    const userEdit = (text: string) =>
      text.replace('"theme": "GitHub",', '"theme": "Dracula", // night').replace("{\n", "{\n  // edited\n");
    write(settingsFile, userEdit(read(settingsFile)));
    expect(actions(uninstallConnector(geminiConnector, context, options()))).toEqual(["removed-entries"]);
    expect(read(settingsFile)).toBe(userEdit(commented));
  });

  it("moves its own entries when cairn moved, touching nothing else", () => {
    write(settingsFile, commented);
    installConnector(geminiConnector, context, options());
    const installed = read(settingsFile);
    const moved = { ...context, invocation: { command: "/usr/bin/node", args: ["/srv/cairn/dist/cli/main.cjs"] } };
    expect(actions(installConnector(geminiConnector, moved, options()))).toEqual(["updated"]);
    const old = ["/opt/node/bin/node", "/opt/cairn/dist/cli/main.js"];
    const now = ["/usr/bin/node", "/srv/cairn/dist/cli/main.cjs"];
    expect(read(settingsFile)).toBe(
      installed.replaceAll(old[0] as string, now[0] as string).replaceAll(old[1] as string, now[1] as string),
    );
    expect(actions(uninstallConnector(geminiConnector, moved, options()))).toEqual(["restored"]);
    expect(read(settingsFile)).toBe(commented);
  });

  it("keeps a trailing comma, tabs and CRLF line ends where the user wrote them", () => {
    const written = '{\r\n\t"ui": {\r\n\t\t"theme": "GitHub",\r\n\t},\r\n}\r\n';
    write(settingsFile, written);
    installConnector(geminiConnector, context, options());
    const installed = read(settingsFile);
    expect(
      installed.startsWith('{\r\n\t"ui": {\r\n\t\t"theme": "GitHub",\r\n\t},\r\n\t"hooks": {\r\n\t\t"SessionStart": ['),
    ).toBe(true);
    expect(installed.replaceAll("\r\n", "")).not.toContain("\n");
    expect(installed.endsWith("\t},\r\n}\r\n")).toBe(true);
    write(settingsFile, `${installed}\r\n`);
    expect(actions(uninstallConnector(geminiConnector, context, options()))).toEqual(["removed-entries"]);
    expect(read(settingsFile)).toBe(`${written}\r\n`);
  });

  it("refuses a file that is not JSON even with comments allowed, with one line naming it, and changes nothing", () => {
    const broken = commented.replace('"vimMode": true,', '"vimMode": true');
    write(settingsFile, broken);
    expect(() => installConnector(geminiConnector, context, options())).toThrow(
      /^[^\n]*settings\.json is not valid JSON, even with comments allowed \(CommaExpected at line 5, column 5\), so cairn changed nothing; fix it and run 'cairn install gemini' again$/,
    );
    expect(read(settingsFile)).toBe(broken);
    expect(backups(settingsFile)).toEqual([]);
  });
});

describe("hooks switched off in Gemini CLI", () => {
  it("warns when hooks are off as a whole or cairn's is disabled by name, and not otherwise", () => {
    expect(geminiHooksOffWarning(temp.env)).toBeUndefined();
    write(settingsFile, fixture);
    expect(geminiHooksOffWarning(temp.env)).toBeUndefined();
    write(settingsFile, JSON.stringify({ hooksConfig: { enabled: false } }));
    expect(geminiHooksOffWarning(temp.env)).toMatch(
      /^warning: \S+settings\.json sets hooksConfig\.enabled to false, so Gemini CLI runs no hooks and starts sessions without cairn's memory; /,
    );
    write(settingsFile, '{\n  // off while travelling\n  "hooksConfig": { "enabled": false },\n}\n');
    expect(geminiHooksOffWarning(temp.env)).toMatch(/sets hooksConfig\.enabled to false/);
    write(settingsFile, JSON.stringify({ hooksConfig: { disabled: ["cairn-memory"] } }));
    expect(geminiHooksOffWarning(temp.env)).toMatch(
      /lists 'cairn-memory' in hooksConfig\.disabled, .*\/hooks enable cairn-memory/,
    );
  });
});

describe("the Gemini CLI session-start hook output", () => {
  it("is the hook JSON Gemini CLI injects (plain text would only be shown to the user)", () => {
    expect(JSON.parse(renderForAgent("gemini", "- Prefer small pull requests."))).toEqual({
      hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "- Prefer small pull requests." },
    });
    expect(renderForAgent("gemini", "")).toBe("");
  });
});
