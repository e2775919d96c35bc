import { lstatSync, readlinkSync } from "node:fs";
import { dirname, resolve } from "node:path";

/** Linux's own limit on links followed in one lookup; a longer chain is a loop. */
const MAX_HOPS = 40;

/**
 * The file a path finally names once its symlinks are followed, even when that file does not exist
 * yet (a dotfiles link to a file not created). A path that is not a link comes back unchanged. Writing
 * to the result instead of the path keeps a user's link a link. Throws ELOOP on a loop.
 */
export function linkTarget(path: string): string {
  let current = resolve(path);
  for (let hop = 0; hop < MAX_HOPS; hop += 1) {
    let isLink: boolean;
    try {
      isLink = lstatSync(current).isSymbolicLink();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return current;
      throw error;
    }
    if (!isLink) return current;
    current = resolve(dirname(current), readlinkSync(current));
  }
  throw Object.assign(new Error(`too many symbolic links: ${path}`), { code: "ELOOP", path });
}
