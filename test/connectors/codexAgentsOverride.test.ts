import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Cairn } from "../../src/cairn.js";
import { doctor } from "../../src/cli/commands/doctor.js";
import { installConnector } from "../../src/connectors/applyConnector.js";
import { codexAgentsOverrideWarning } from "../../src/connectors/codexAgentsOverride.js";
import { AGENTS_MARKERS, codexConnector } from "../../src/connectors/codexConnector.js";
import { type TempHome, tempHome } from "../server/tempHome.js";

let temp: TempHome;
let overrideFile: string;

beforeEach(() => {
  temp = tempHome();
  overrideFile = join(temp.root, ".codex", "AGENTS.override.md");
});

afterEach(() => temp.cleanup());

function install(): void {
  const context = { invocation: { command: "/opt/node/bin/node", args: ["/opt/cairn/main.js"] }, env: temp.env };
  installConnector(codexConnector, context, { stateDir: join(temp.home, "connectors") });
}

function writeOverride(text: string): void {
  mkdirSync(join(temp.root, ".codex"), { recursive: true });
  writeFileSync(overrideFile, text);
}

describe("Codex's AGENTS.override.md hides cairn's AGENTS.md block", () => {
  it("warns when a non-empty override exists next to the installed block", () => {
    install();
    expect(codexAgentsOverrideWarning(temp.env)).toBeUndefined();
    writeOverride("   \n");
    expect(codexAgentsOverrideWarning(temp.env)).toBeUndefined();
    writeOverride("# Temporary rules\n- Only review, never edit.\n");
    expect(codexAgentsOverrideWarning(temp.env)).toBe(
      `warning: Codex reads ${overrideFile} instead of AGENTS.md, so it never sees cairn's memory instructions; copy the cairn block from AGENTS.md into it, or remove it`,
    );
    writeOverride(`# Temporary rules\n\n${AGENTS_MARKERS.begin}\n...\n${AGENTS_MARKERS.end}\n`);
    expect(codexAgentsOverrideWarning(temp.env)).toBeUndefined();
  });

  it("says nothing when cairn is not installed for Codex, and cairn doctor reports it when it is", async () => {
    writeOverride("# Temporary rules\n");
    expect(codexAgentsOverrideWarning(temp.env)).toBeUndefined();
    install();
    const cairn = new Cairn({ home: temp.home, env: temp.env });
    try {
      expect((await doctor(cairn)).codexAgentsOverride).toMatch(/^warning: Codex reads .*AGENTS\.override\.md/);
    } finally {
      cairn.close();
    }
  });
});
