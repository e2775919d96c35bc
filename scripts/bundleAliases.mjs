// Packages a bundle must take from another entry point than their package main, for every esbuild
// build of the CLI (scripts/bundle-cli.mjs, and the chaos suite's own bundle in test/chaos/support).
// jsonc-parser's main is a UMD build whose inner require("./impl/...") calls the bundler leaves as they
// are, so they fail at run time ("Cannot find module './impl/format'"); its ES module build bundles whole.
// The library's own modules (dist/connectors) load the UMD build, which works there.
export const bundleAliases = { "jsonc-parser": "jsonc-parser/lib/esm/main.js" };
