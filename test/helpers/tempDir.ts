import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const created: string[] = [];

/**
 * A fresh folder in the temp dir, removed with everything in it after the test file ends
 * (test/setup/perFile.ts), so a test can neither forget nor fail to clean it up.
 */
export function tempDir(prefix = "cairn-test-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  created.push(dir);
  return dir;
}

export function removeTempDirs(): void {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
}
