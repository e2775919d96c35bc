import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";

/**
 * The system Chromium the browser suite drives (playwright-core downloads none): $CHROMIUM_PATH, else
 * the first chromium / chromium-browser / google-chrome on PATH. Undefined when there is none.
 */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.CHROMIUM_PATH) return env.CHROMIUM_PATH;
  const dirs = (env.PATH ?? "").split(delimiter).filter(Boolean);
  for (const name of ["chromium", "chromium-browser", "google-chrome"]) {
    for (const dir of dirs) {
      try {
        accessSync(join(dir, name), constants.X_OK);
        return join(dir, name);
      } catch {
        // not here
      }
    }
  }
  return undefined;
}
