import { readdirSync } from "node:fs";
import { join } from "node:path";

/** Every `.ts` file below `dir`, for the tests that read the source tree (store doors, the facade). */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = join(dir, entry.name);
    return entry.isDirectory() ? sourceFiles(full) : entry.name.endsWith(".ts") ? [full] : [];
  });
}
