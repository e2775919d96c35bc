import { mkdtempSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterAll, inject } from "vitest";
import { removeTempDirs } from "../helpers/tempDir.js";
import { isolatedEnv, unsetVariables } from "./isolatedEnv.js";

// Runs in the worker before each test file: the run's isolated environment, and a temp dir of the
// file's own, so a file that leaves something behind is named.
const root = inject("isolatedRoot");
const env = isolatedEnv(root);
const fileTmp = mkdtempSync(join(env.TMPDIR as string, "file-"));
Object.assign(process.env, env, { TMPDIR: fileTmp, TMP: fileTmp, TEMP: fileTmp });
for (const name of unsetVariables) delete process.env[name];
// tsx (which runs the CLI from source in child processes) caches compiled files in <tmpdir>/tsx-<uid>:
// shared across files through a link into the run's folder, and not counted as something left behind.
const tsxCache = `tsx-${process.geteuid?.() ?? 0}`;
symlinkSync(join(root, "tsx-cache"), join(fileTmp, tsxCache));

afterAll(() => {
  removeTempDirs();
  const left = readdirSync(fileTmp).filter((name) => name !== tsxCache);
  rmSync(fileTmp, { recursive: true, force: true });
  if (left.length > 0) {
    throw new Error(
      `this test file left files in the temp dir: ${left.join(", ")} (create temp folders with tempDir() from test/helpers/tempDir.ts)`,
    );
  }
});
