import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, it, vi } from "vitest";
import { Cairn } from "../../src/cairn.js";
import { printScanSummary } from "../../src/cli/commands/scan.js";
import { type TempHome, tempHome } from "../server/tempHome.js";

let temp: TempHome | undefined;
afterEach(() => {
  vi.restoreAllMocks();
  temp?.cleanup();
});

it("scan names each folder it was to read that does not exist, given or default", async () => {
  temp = tempHome();
  const given = join(temp.root, "no-such-folder");
  const present = join(temp.root, "pi-sessions");
  mkdirSync(present);
  const cairn = new Cairn({ home: temp.home, env: temp.env });
  let stdout = "";
  try {
    const report = await cairn.scan({ overrides: { "claude-code": [given], pi: [present] } });
    expect(report.missingRoots).toContainEqual({ agent: "claude-code", path: given });
    // The defaults of the agents not given (all under the test's fake home, none created).
    expect(report.missingRoots).toContainEqual({ agent: "codex", path: join(temp.root, ".codex") });
    expect(report.missingRoots.map((root) => root.path)).not.toContain(present);

    vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
      stdout += String(chunk);
      return true;
    });
    printScanSummary(report);
  } finally {
    cairn.close();
  }
  expect(stdout).toContain("scanned 0 files (no agent sessions found)");
  const missingLine = stdout.split("\n").find((line) => line.startsWith("  missing: "));
  expect(missingLine).toContain(`claude-code ${given}`);
  expect(missingLine).not.toContain(present);
});
