import { mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { isolatedEnv, unsetVariables } from "./isolatedEnv.js";

declare module "vitest" {
  export interface ProvidedContext {
    isolatedRoot: string;
  }
}

const RUN_ROOT = "CAIRN_TEST_RUN_ROOT";

/**
 * Runs once per `vitest run`: creates the run's folder, points the environment at it (workers and the
 * processes they spawn inherit it), and at the end removes it. The run fails when a test wrote into
 * the home directory (without this setup that would have been the user's real home) or left files
 * in the temp dir.
 */
export default function setup(project: TestProject): () => void {
  // Each vitest project (the two tiers of vitest.config.ts) runs this; the first one's folder serves
  // the run, and its teardown checks and removes it once every project is done.
  const current = process.env[RUN_ROOT];
  if (current) {
    project.provide("isolatedRoot", current);
    return () => {};
  }
  const root = mkdtempSync(join(tmpdir(), "cairn-test-run-"));
  process.env[RUN_ROOT] = root;
  const env = isolatedEnv(root);
  for (const dir of [env.HOME, env.TMPDIR, env.XDG_RUNTIME_DIR, join(root, "tsx-cache")]) {
    mkdirSync(dir as string, { recursive: true, mode: 0o700 });
  }
  Object.assign(process.env, env);
  for (const name of unsetVariables) delete process.env[name];
  project.provide("isolatedRoot", root);
  return () => {
    const wroteHome = readdirSync(env.HOME as string);
    const tmp = env.TMPDIR as string;
    // A file whose tests were all skipped (a suite that needs ../shared) never runs its afterAll, so
    // its own temp folder stays, holding nothing but the tsx cache link: that is not a leftover.
    const leftTemp = readdirSync(tmp).filter(
      (name) => !(name.startsWith("file-") && readdirSync(join(tmp, name)).every((entry) => entry.startsWith("tsx-"))),
    );
    rmSync(root, { recursive: true, force: true });
    delete process.env[RUN_ROOT];
    const problems = [
      wroteHome.length > 0
        ? `tests wrote into the home directory, which without this setup is the user's real one: ${wroteHome.join(", ")}`
        : "",
      leftTemp.length > 0 ? `tests left files in the temp dir: ${leftTemp.join(", ")}` : "",
    ].filter(Boolean);
    if (problems.length > 0) {
      // Vitest reports an error thrown here but does not fail the run for it.
      process.exitCode = 1;
      throw new Error(
        `${problems.join("; ")} (give each test its own CAIRN_HOME / HOME folder from tempDir() in test/helpers/tempDir.ts)`,
      );
    }
  };
}
