// Copies the non-TypeScript assets that the runtime reads (prompt templates, the memory browser's page,
// the concept lexicon with its license) next to the compiled code, and marks the CLI entry executable:
// tsc writes it 0644, and npm sets the bit only on packages it installs, not on the project it builds, so
// `npx cairn` in a fresh clone would fail with "Permission denied".
import { chmodSync, cpSync, existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
// The templates only: the folder's .ts files are compiled by tsc, and their sources do not ship.
if (existsSync(join(root, "src/prompts")))
  cpSync(join(root, "src/prompts"), join(root, "dist/prompts"), {
    recursive: true,
    filter: (source) => !source.endsWith(".ts"),
  });
// The memory browser's page (`cairn ui`), served from the package: no CDN, no build step of its own.
if (existsSync(join(root, "src/ui"))) cpSync(join(root, "src/ui"), join(root, "dist/ui"), { recursive: true });
for (const file of ["concepts.txt", "LICENSE-WORDNET"]) {
  if (existsSync(join(root, "src/text/lexicon", file)))
    cpSync(join(root, "src/text/lexicon", file), join(root, "dist/text/lexicon", file));
}
for (const file of ["wordvec.bin", "sources.tsv"]) {
  if (existsSync(join(root, "src/providers/embeddings/wordvec", file)))
    cpSync(join(root, "src/providers/embeddings/wordvec", file), join(root, "dist/providers/embeddings/wordvec", file));
}
const bin = join(root, "dist/cli/main.js");
if (existsSync(bin)) chmodSync(bin, 0o755);
