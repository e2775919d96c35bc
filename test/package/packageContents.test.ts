import { existsSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { installedPackage } from "./installedCli.js";

const root = join(import.meta.dirname, "..", "..");

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(installedPackage, join(entry.parentPath, entry.name)).split("\\").join("/"));
}

// What a user downloads is what runs: the CLI bundle (dist/cli) with the assets it reads beside it, the
// library (dist/index.js and its modules) with theirs, the examples and the package's own files.
describe("the installed package's files", () => {
  const shipped = filesUnder(installedPackage).filter((file) => !file.startsWith("node_modules/"));

  it("holds no TypeScript source, no source map and no copy of src/", () => {
    expect(shipped.filter((file) => file.startsWith("src/"))).toEqual([]);
    expect(shipped.filter((file) => file.endsWith(".map"))).toEqual([]);
    expect(shipped.filter((file) => file.endsWith(".ts") && !file.endsWith(".d.ts"))).toEqual([]);
  });

  it("holds no compiled module whose source is gone (a build starts from an empty dist/)", () => {
    const library = shipped.filter(
      (file) => file.startsWith("dist/") && !file.startsWith("dist/cli/") && file.endsWith(".js"),
    );
    const orphans = library.filter(
      (file) => !existsSync(join(root, file.replace(/^dist\//, "src/").replace(/\.js$/, ".ts"))) && !isAsset(file),
    );
    expect(orphans).toEqual([]);
  });

  it("ships each prompt template once for the CLI bundle and once for the library, where each reads it", () => {
    const prompts = readdirSync(join(root, "src", "prompts")).filter((file) => file.endsWith(".md"));
    expect(prompts.length).toBeGreaterThan(0);
    for (const name of prompts) {
      expect(shipped, name).toContain(`dist/cli/${name}`);
      expect(shipped, name).toContain(`dist/prompts/${name}`);
    }
  });
});

/** A file the build copies rather than compiles (the memory browser's script). */
function isAsset(file: string): boolean {
  return existsSync(join(root, file.replace(/^dist\//, "src/")));
}
