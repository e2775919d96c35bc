// Copies the non-TypeScript assets that the runtime reads (prompt templates, the concept lexicon with its
// license) next to the compiled code.
import { cpSync, existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
if (existsSync(join(root, "src/prompts")))
  cpSync(join(root, "src/prompts"), join(root, "dist/prompts"), { recursive: true });
for (const file of ["concepts.txt", "LICENSE-WORDNET"]) {
  if (existsSync(join(root, "src/lexicon", file)))
    cpSync(join(root, "src/lexicon", file), join(root, "dist/lexicon", file));
}
