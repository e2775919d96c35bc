import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** The npm prefix the packed tarball was installed into, as `npm install --global --prefix`. */
    packagePrefix: string;
  }
}

const root = join(import.meta.dirname, "..", "..");

/**
 * Runs once, before the isolated test environment is set up (so npm finds the real cache that `npm ci`
 * filled): packs the built package the way `npm publish` would and installs the tarball into an empty
 * prefix, as a user's `npm install --global` does. The suite then runs cairn from that prefix's bin, with
 * only what the tarball ships and what npm installed for it.
 */
export default function setup(project: TestProject): () => void {
  if (!existsSync(join(root, "dist", "cli", "main.cjs"))) {
    throw new Error("dist/ is missing: run `npm run build` first (npm run test:package does)");
  }
  const work = mkdtempSync(join(tmpdir(), "cairn-package-"));
  const npm = (args: string[], cwd: string) =>
    execFileSync("npm", [...args, "--no-audit", "--no-fund", "--loglevel=error"], {
      cwd,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    });
  // The build already ran (and `prepack` would run it again): pack what is in dist/.
  const packed = JSON.parse(npm(["pack", "--json", "--ignore-scripts", "--pack-destination", work], root)) as [
    { filename: string },
  ];
  const tarball = join(work, packed[0].filename);
  const prefix = join(work, "prefix");
  // Dependencies come from npm's cache where `npm ci` put them; the registry is asked only for what is missing.
  npm(["install", "--global", "--prefix", prefix, "--prefer-offline", tarball], work);
  const { name } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { name: string };
  const installed = JSON.parse(readFileSync(join(prefix, "lib", "node_modules", name, "package.json"), "utf8"));
  if (typeof installed.version !== "string") throw new Error(`no ${name} in ${prefix}`);
  project.provide("packagePrefix", prefix);
  return () => rmSync(work, { recursive: true, force: true });
}
