// Empties dist/ before a build. tsc only adds and overwrites: a module whose source was deleted or
// moved, or a source map from a build that wrote them, stayed in dist/ and shipped in the package.
import { rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

rmSync(join(dirname(fileURLToPath(import.meta.url)), "..", "dist"), { recursive: true, force: true });
