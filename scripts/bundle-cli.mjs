// Bundles the CLI (and the import lanes' worker) into dist/cli with esbuild, after tsc has built the
// library. Why: a `cairn recall` loaded ~370 ES modules one by one, and resolving, reading and
// linking them cost more than the recall itself; the bundle is the bin, one CommonJS file holding the
// program and the worker's file (docs/decisions/startup.md and bench/startup.ts have the figures).
// The modules that read files shipped beside them (prompt templates, the concept lexicon, the word
// vectors) read the library's copies in dist/; the TOML library's WebAssembly is copied beside the
// bundle; package.json and examples/ are found two folders up, as from the unbundled files.
import { createHash } from "node:crypto";
import { chmodSync, copyFileSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { bundleAliases } from "./bundleAliases.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const outdir = join(root, "dist", "cli");

// zod's namespace re-exports every locale (`z.locales`, about 370 KB), and esbuild cannot drop a
// member of a namespace it hands out whole. cairn reports in English only, so the locale index zod
// imports is replaced by one that holds English alone: every `recall` compiled the rest for nothing.
const englishZodOnly = {
  name: "english-zod-only",
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(`${join("node_modules", "zod")}`)
        ? { path: join(dirname(args.importer), "..", "locales", "index.js"), namespace: "zod-locales" }
        : undefined,
    );
    pluginBuild.onLoad({ filter: /.*/, namespace: "zod-locales" }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(join(dirname(args.path), "en.js"))};`,
      resolveDir: dirname(args.path),
    }));
  },
};

// The modules that read a file shipped beside themselves (the word vectors, the concept lexicon, the
// prompt templates) read the copy beside their library module in dist/ (scripts/copy-assets.mjs), so the
// package holds each file once: their `import.meta.url` becomes their library module's URL, reached
// from the bundle's own (both sit in dist/). The files must be there when the bundle is built.
const ASSETS_BESIDE = [
  { source: "src/providers/embeddings/wordvec/wordvecEmbedding.ts", files: ["wordvec.bin"] },
  { source: "src/text/lexicon/concepts.ts", files: ["concepts.txt"] },
  {
    source: "src/prompts/template.ts",
    files: readdirSync(join(root, "src/prompts")).filter((file) => file.endsWith(".md")),
  },
];
const assetsFromLibrary = {
  name: "assets-from-library",
  setup(pluginBuild) {
    for (const { source, files } of ASSETS_BESIDE) {
      const compiled = source.replace(/^src\//, "").replace(/\.ts$/, ".js");
      for (const file of files)
        if (!existsSync(join(root, "dist", dirname(compiled), file)))
          throw new Error(`dist/${dirname(compiled)}/${file} is missing: run tsc and scripts/copy-assets.mjs first`);
      const filter = new RegExp(`${source.replaceAll(".", "\\.")}$`);
      pluginBuild.onLoad({ filter }, (args) => {
        const code = readFileSync(args.path, "utf8");
        if (!code.includes("import.meta.url"))
          throw new Error(`${source} no longer reads import.meta.url: review the plugin`);
        const own = `new URL(${JSON.stringify(`../${compiled}`)}, import.meta.url).href`;
        return { contents: code.replaceAll("import.meta.url", own), loader: "ts" };
      });
    }
  },
};

// The CLI and a resident process (src/cli/resident/) talk only when they come from the same build.
// The id is a hash of the bundle's code, written over a placeholder of the same length afterwards.
const BUILD_ID_PLACEHOLDER = "cairn-build-0000000000000000";

// The builds below write every file of dist/cli anew: start from an empty folder, so that nothing of
// an earlier layout (the code-split chunks before issue 36) stays behind and ships.
rmSync(outdir, { recursive: true, force: true });

// The TOML library (Codex's config.toml) loads node:fs with a top-level await, which CommonJS cannot
// hold; in Node that await only loads a built-in, which require does at once. Exact text, so that an
// update of the library that changes it fails the build instead of shipping untested code.
const tomlShimWithoutAwait = {
  name: "toml-shim-without-await",
  setup(pluginBuild) {
    pluginBuild.onLoad({ filter: /toml-edit-js[\\/]shims\.js$/ }, (args) => {
      const code = readFileSync(args.path, "utf8");
      const awaited = 'nodeFs = await import("node:fs");';
      if (!code.includes(awaited)) throw new Error(`${args.path} no longer holds ${awaited}: review the plugin`);
      return { contents: code.replace(awaited, 'nodeFs = require("node:fs");'), loader: "js" };
    });
  },
};

// Native addons and the optional local-model runtime stay in node_modules. So does undici: the code
// imports it on demand (a proxy, a fetched document), and a bundled copy imported that way handed out
// its classes as undefined ("Agent is not a constructor"); it is a dependency, installed beside cairn.
const external = ["better-sqlite3", "sqlite-vec", "@huggingface/*", "undici"];
const common = {
  bundle: true,
  platform: "node",
  target: "node22",
  external,
  define: { CAIRN_BUILD_ID: JSON.stringify(BUILD_ID_PLACEHOLDER) },
  logLevel: "warning",
  // Without comments and indentation (names stay as written): node reads and V8 scans a third less at
  // every start. esbuild writes strings and names as ASCII; with the comments gone, the check below
  // keeps the whole program ASCII (docs/decisions/startup.md).
  minifyWhitespace: true,
  charset: "ascii",
  alias: bundleAliases,
};

// The program: every command in one CommonJS file (docs/decisions/startup.md). Node reads, compiles
// and links a single file much faster than ~100 code-split ES module chunks (a cold `cairn recall`
// spent a quarter of its time resolving and linking them); what a command does not use is wrapped by
// the bundler in functions that run on first import, so one command still loads only its own code.
// The modules that find files beside themselves through `import.meta.url` get the bundle's own URL.
await build({
  ...common,
  entryPoints: [join(root, "src/cli/runCli.ts")],
  outfile: join(outdir, "program.cjs"),
  format: "cjs",
  define: {
    ...common.define,
    "import.meta.url": "__cairnModuleUrl",
    "import.meta.resolve": "__cairnResolve",
  },
  // The file is the function node's CommonJS loader would wrap it in, written out: the bin compiles it
  // as it is (src/cli/loadProgram.ts), where wrapping it at run time copied the whole program once more.
  banner: {
    js: [
      "(function (exports, require, module, __filename, __dirname) {",
      'const __cairnModuleUrl = require("node:url").pathToFileURL(__filename).href;',
      'const __cairnResolve = (specifier) => require("node:url").pathToFileURL(require.resolve(specifier)).href;',
    ].join(""),
  },
  footer: { js: "})" },
  plugins: [englishZodOnly, tomlShimWithoutAwait, assetsFromLibrary],
});

// The import lanes' worker thread, started by URL from the program (src/collection/importLanes.ts).
await build({
  ...common,
  entryPoints: [join(root, "src/collection/importWorker.ts")],
  outfile: join(outdir, "importWorker.js"),
  format: "esm",
  // Bundled CommonJS dependencies call require(); ESM output has none unless it is created.
  banner: {
    js: "import{createRequire as __cairnRequire}from'node:module';const require=__cairnRequire(import.meta.url);",
  },
  plugins: [englishZodOnly, assetsFromLibrary],
});

// The package's bin: node built-ins only while it asks a resident process (src/cli/resident/); when
// none answers, it requires program.cjs. CommonJS, so that node starts it without setting up its ES
// module loader.
await build({
  ...common,
  entryPoints: [join(root, "src/cli/main.ts")],
  outfile: join(outdir, "main.cjs"),
  format: "cjs",
  external: [...external, "./runCli.js", "./program.cjs"],
  define: { ...common.define, CAIRN_PROGRAM: JSON.stringify("./program.cjs") },
});
// Hooks and MCP entries written by earlier versions name dist/cli/main.js: it runs the bin.
writeFileSync(join(outdir, "main.js"), '#!/usr/bin/env node\nimport "./main.cjs";\n');

const bundled = readdirSync(outdir)
  .filter((file) => file.endsWith(".js") || file.endsWith(".cjs"))
  .sort();

// V8 keeps a script's source one byte per character only when all of it is ASCII: one "\u2019" in a
// regular expression made the 3 MB program a two-byte string that node decoded from UTF-8 at every start
// (a tenth of a recall's instructions). esbuild escapes strings and names but copies regular expressions
// as written, so the sources write such characters as \u escapes, and this check keeps it so.
for (const file of bundled) {
  const code = readFileSync(join(outdir, file), "utf8");
  const at = code.search(/[^\x00-\x7f]/);
  if (at >= 0)
    throw new Error(
      `dist/cli/${file} holds a non-ASCII character (${JSON.stringify(code.slice(Math.max(0, at - 40), at + 10))}): write it as a \\u escape in the source`,
    );
}
const hash = createHash("sha256");
for (const file of bundled) hash.update(file).update(readFileSync(join(outdir, file)));
const buildId = `cairn-build-${hash.digest("hex").slice(0, 16)}`;
for (const file of bundled) {
  const code = readFileSync(join(outdir, file), "utf8");
  if (code.includes(BUILD_ID_PLACEHOLDER))
    writeFileSync(join(outdir, file), code.replaceAll(BUILD_ID_PLACEHOLDER, buildId));
}

// The TOML library (Codex's config.toml) loads its WebAssembly from beside its own module, which is
// the chunk it was bundled into.
const tomlEdit = dirname(createRequire(import.meta.url).resolve("@rainbowatcher/toml-edit-js"));
copyFileSync(join(tomlEdit, "index_bg.wasm"), join(outdir, "index_bg.wasm"));

// Every file the bundle opens beside itself by a literal `new URL("…", import.meta.url)` must be there:
// a missing one fails only at run time, in the one command that loads it (the WASM above once did).
// Folders it reads (examples/) ship with the package.
const missing = [];
for (const file of bundled) {
  const code = readFileSync(join(outdir, file), "utf8");
  for (const [, asset] of code.matchAll(
    /new URL\(\s*["'`]([^"'`$]+)["'`]\s*,\s*(?:import\.meta\.url|__cairnModuleUrl)\s*\)/g,
  )) {
    if (!existsSync(resolve(outdir, asset))) missing.push(`${asset} (loaded by ${file})`);
  }
}
if (missing.length > 0) throw new Error(`the bundle loads files it does not ship: ${missing.join(", ")}`);

// npm sets the executable bit only on packages it installs, not on the project it builds.
chmodSync(join(outdir, "main.cjs"), 0o755);
chmodSync(join(outdir, "main.js"), 0o755);
