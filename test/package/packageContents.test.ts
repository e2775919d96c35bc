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

// What a user downloads is what runs: the CLI bundle (dist/cli), the library (dist/index.js and its
// modules) with the files they read beside them (which the bundle reads too), the examples and the
// package's own files.
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

  it("ships each file the code reads beside itself once, beside the library module that reads it", () => {
    const prompts = readdirSync(join(root, "src", "prompts")).filter((file) => file.endsWith(".md"));
    expect(prompts.length).toBeGreaterThan(0);
    const assets = [
      ...prompts.map((name) => `dist/prompts/${name}`),
      "dist/text/lexicon/concepts.txt",
      "dist/providers/embeddings/wordvec/wordvec.bin",
    ];
    for (const asset of assets) expect(shipped, asset).toContain(asset);
    // The CLI bundle reads the library's copies (scripts/bundle-cli.mjs): none of them beside it again.
    const names = new Set(assets.map((asset) => asset.split("/").at(-1)));
    expect(shipped.filter((file) => file.startsWith("dist/cli/") && names.has(file.split("/").at(-1)))).toEqual([]);
  });
});

/** A file the build copies rather than compiles (the memory browser's script). */
function isAsset(file: string): boolean {
  return existsSync(join(root, file.replace(/^dist\//, "src/")));
}
