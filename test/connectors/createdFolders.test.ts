import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { installConnector, uninstallConnector } from "../../src/connectors/applyConnector.js";
import { connectorFor } from "../../src/connectors/connectors.js";
import { actionsOf, useConnectorHome, writeConfig as write } from "../helpers/connectorFiles.js";

// An agent folder install made only for cairn goes at uninstall; one that was there before never does.

const home = useConnectorHome();

/** Each agent's folder in the fake HOME (tempHome moves Claude Code, Codex, Gemini CLI and OpenCode there). */
const agentFolders: Record<string, () => string> = {
  "claude-code": () => join(home.temp.root, ".claude"),
  codex: () => join(home.temp.root, ".codex"),
  gemini: () => join(home.temp.root, ".gemini-home"),
  opencode: () => join(home.temp.root, ".config"),
};

const homeEntries = () => readdirSync(home.temp.root).sort();

describe("folders install created", () => {
  for (const [agent, folder] of Object.entries(agentFolders)) {
    it(`${agent}: removed at uninstall when empty, and the home is as it was`, () => {
      const before = homeEntries();
      installConnector(connectorFor(agent), home.context, home.options());
      expect(existsSync(folder())).toBe(true);
      const removed = uninstallConnector(connectorFor(agent), home.context, home.options());
      expect(removed.filter((change) => change.action === "folder-removed").map((change) => change.file)).toContain(
        folder(),
      );
      expect(homeEntries()).toEqual(before);
    });
  }

  it("pi: the extensions folder it created goes, pi's own folder stays", () => {
    const piDir = join(home.temp.root, ".pi", "agent");
    write(join(piDir, "settings.json"), "{}\n");
    installConnector(connectorFor("pi"), home.context, home.options());
    expect(actionsOf(uninstallConnector(connectorFor("pi"), home.context, home.options()))).toEqual([
      "deleted",
      "folder-removed",
    ]);
    expect(readdirSync(piDir)).toEqual(["settings.json"]);
  });

  it("a folder that existed before stays, even empty", () => {
    const gemini = join(home.temp.root, ".gemini-home", ".gemini");
    mkdirSync(gemini, { recursive: true });
    installConnector(connectorFor("gemini"), home.context, home.options());
    expect(actionsOf(uninstallConnector(connectorFor("gemini"), home.context, home.options()))).toEqual(["deleted"]);
    expect(readdirSync(gemini)).toEqual([]);
  });

  it("a folder cairn created that the agent has written into since stays, with the agent's files", () => {
    installConnector(connectorFor("gemini"), home.context, home.options());
    const gemini = join(home.temp.root, ".gemini-home", ".gemini");
    write(join(gemini, "tmp", "chats", "session.json"), "{}");
    expect(actionsOf(uninstallConnector(connectorFor("gemini"), home.context, home.options()))).toEqual(["deleted"]);
    expect(readdirSync(gemini)).toEqual(["tmp"]);
    expect(readFileSync(join(gemini, "tmp", "chats", "session.json"), "utf8")).toBe("{}");
  });

  it("a second install records nothing new, and the first install's folders still go", () => {
    installConnector(connectorFor("codex"), home.context, home.options());
    installConnector(connectorFor("codex"), home.context, home.options());
    uninstallConnector(connectorFor("codex"), home.context, home.options());
    expect(existsSync(join(home.temp.root, ".codex"))).toBe(false);
  });
});
