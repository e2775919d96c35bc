import { type SpawnSyncReturns, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { inject } from "vitest";
import { tempDir } from "../helpers/tempDir.js";

/** The package's name on the registry (package.json), which is not the command's: `cairn`. */
export const packageName = (
  JSON.parse(readFileSync(join(import.meta.dirname, "..", "..", "package.json"), "utf8")) as { name: string }
).name;

/** The cairn a user installed with `npm install --global`: the prefix's bin, run by the Node.js under test. */
export const prefix = inject("packagePrefix");
export const bin = join(prefix, "bin", "cairn");
export const installedPackage = join(prefix, "lib", "node_modules", packageName);

/** A user's fresh home and memory root, and the environment a shell there would give cairn. */
export interface UserHome {
  home: string;
  cairnHome: string;
  env: Record<string, string>;
}

export function userHome(): UserHome {
  const home = tempDir("cairn-user-");
  const cairnHome = join(home, ".cairn");
  // The bin's `#!/usr/bin/env node` must find the Node.js this suite runs on, as the user's shell would.
  const path = [dirname(process.execPath), join(prefix, "bin"), process.env.PATH ?? ""].join(delimiter);
  return { home, cairnHome, env: { PATH: path, HOME: home, CAIRN_HOME: cairnHome, TMPDIR: home } };
}

export function cairn(user: UserHome, args: string[], input = ""): SpawnSyncReturns<string> {
  return spawnSync(bin, args, { cwd: user.home, env: user.env, input, encoding: "utf8", timeout: 60_000 });
}
