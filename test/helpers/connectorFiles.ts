import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, beforeEach } from "vitest";
import type { ApplyOptions } from "../../src/connectors/applyConnector.js";
import type { InstallContext } from "../../src/connectors/types.js";
import { type TempHome, tempHome } from "../server/tempHome.js";

/** Writes an agent config file, creating its folders (the way an agent's first run would). */
export function writeConfig(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

export const readConfig = (file: string): string => readFileSync(file, "utf8");

/** The contents of the `<file>.cairn-backup-*` copies beside `file`, oldest name first. */
export function backupsOf(file: string): string[] {
  const name = file.split("/").at(-1) ?? "";
  return readdirSync(dirname(file))
    .filter((entry) => entry.startsWith(`${name}.cairn-backup-`))
    .sort()
    .map((entry) => readConfig(join(dirname(file), entry)));
}

export const actionsOf = (changes: { action: string }[]): string[] => changes.map((change) => change.action);

/**
 * A fake HOME (every agent's folder inside it) with the context an install from a packaged cairn gets,
 * and install options with records in the memory root and a fixed clock.
 */
function connectorHome(): ConnectorHome {
  const temp = tempHome();
  const context = {
    invocation: { command: "/opt/node/bin/node", args: ["/opt/cairn/dist/cli/main.cjs"] },
    env: temp.env,
  };
  const options = () => ({ stateDir: join(temp.home, "connectors"), now: () => new Date("2026-05-01T10:00:00Z") });
  return { temp, context, options };
}

export interface ConnectorHome {
  temp: TempHome;
  context: InstallContext;
  options: () => ApplyOptions;
}

/** A new connectorHome for each test of the file (removed after it); read its fields inside the tests. */
export function useConnectorHome(): ConnectorHome {
  const current = {} as ConnectorHome;
  beforeEach(() => Object.assign(current, connectorHome()));
  afterEach(() => current.temp.cleanup());
  return current;
}
