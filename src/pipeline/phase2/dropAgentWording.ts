import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { withoutAgentDirected } from "../../text/addressesAgent.js";
import { writeFileAtomic } from "../../util/atomicWrite.js";

/**
 * Removes wording addressed to an AI agent ("you are now ...", "ignore previous instructions", a URL
 * piped into a shell) from every Markdown file of a staging folder, as stage 1 does with its answers:
 * what a consolidator wrote (MEMORY.md, memory_summary.md, skills, any note an agent added) is the
 * consolidator's own output, and the summary is injected into every session of the workspace. A model
 * may repeat such a line from its inputs' context or be talked into writing one. Runs after every
 * consolidator, before the workspace is published. Returns the files changed and the lines dropped.
 */
export function dropAgentWording(dir: string): { file: string; lines: number }[] {
  const changed: { file: string; lines: number }[] = [];
  for (const path of markdownFiles(dir)) {
    const result = withoutAgentDirected(readFileSync(path, "utf8"));
    if (result.dropped === 0) continue;
    writeFileAtomic(path, result.text);
    changed.push({ file: relative(dir, path), lines: result.dropped });
  }
  return changed;
}

/** Regular `.md` files under `dir`; symbolic links are not followed (the workspace check refuses them). */
function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(path);
    return entry.isFile() && entry.name.endsWith(".md") ? [path] : [];
  });
}
