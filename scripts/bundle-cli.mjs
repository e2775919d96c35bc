// Bundles the CLI (and the import lanes' worker) into dist/cli with esbuild, after tsc has built the
// library. Why: a `cairn recall` loaded ~370 ES modules one by one, and resolving, reading and
// linking them cost more than the recall itself; the bundle is a handful of files whose code splitting
// keeps each command's modules out of the others' way (bench/startup.ts has the figures).
// Assets the code reads relative to its own module (prompt templates, the concept lexicon) are copied
// beside the bundle; package.json and examples/ are found two folders up, as from the unbundled files.
import { chmodSync, copyFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const outdir = join(root, "dist", "cli");

await build({
  entryPoints: [join(root, "src/cli/main.ts"), join(root, "src/collection/importWorker.ts")],
  outdir,
  entryNames: "[name]",
  chunkNames: "chunk-[hash]",
  bundle: true,
  splitting: true,
  platform: "node",
  format: "esm",
  target: "node20",
  // Native addons and the optional local-model runtime stay in node_modules.
  external: ["better-sqlite3", "sqlite-vec", "@huggingface/*"],
  // Bundled CommonJS dependencies call require(); ESM output has none unless it is created.
  banner: {
    js: "import{createRequire as __cairnRequire}from'node:module';const require=__cairnRequire(import.meta.url);",
  },
  logLevel: "warning",
});

for (const name of readdirSync(join(root, "src/prompts")).filter((file) => file.endsWith(".md")))
  copyFileSync(join(root, "src/prompts", name), join(outdir, name));
for (const name of ["concepts.txt", "LICENSE-WORDNET"])
  copyFileSync(join(root, "src/text/lexicon", name), join(outdir, name));
// npm sets the executable bit only on packages it installs, not on the project it builds.
chmodSync(join(outdir, "main.js"), 0o755);
