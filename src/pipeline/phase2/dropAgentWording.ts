import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join, relative } from "node:path";
import { addressesAgent, withoutAgentDirected } from "../../text/addressesAgent.js";
import { writeFileAtomic } from "../../util/atomicWrite.js";

/**
 * Removes wording addressed to an AI agent ("you are now ...", "ignore previous instructions", a URL
 * piped into a shell) from every Markdown file of a staging folder, as stage 1 does with its answers:
 * what a consolidator wrote (MEMORY.md, memory_summary.md, skills, any note an agent added) is the
 * consolidator's own output, and the summary is injected into every session of the workspace. A model
 * may repeat such a line from its inputs' context or be talked into writing one. A skill whose folder
 * name or front matter (name, description) is such wording goes whole: without those lines it is no
 * skill, and the workspace check would refuse it. Runs after every consolidator, before the workspace
 * is published. Returns one warning per file changed or skill removed.
 */
export function dropAgentWording(dir: string): string[] {
  const warnings = dropAgentSkills(dir);
  for (const path of markdownFiles(dir)) {
    const result = withoutAgentDirected(readFileSync(path, "utf8"));
    if (result.dropped === 0) continue;
    writeFileAtomic(path, result.text);
    warnings.push(`${result.dropped} line(s) addressed to an AI agent dropped from ${relative(dir, path)}`);
  }
  return warnings;
}

function dropAgentSkills(dir: string): string[] {
  const skills = join(dir, "skills");
  if (!existsSync(skills)) return [];
  return readdirSync(skills).flatMap((name) => {
    const file = join(skills, name, "SKILL.md");
    const text = existsSync(file) ? readFileSync(file, "utf8") : "";
    const front = /^---\n([\s\S]*?)\n---/.exec(text)?.[1] ?? "";
    if (!addressesAgent(name.replace(/[-_]+/g, " ")) && !addressesAgent(front)) return [];
    rmSync(join(skills, name), { recursive: true, force: true });
    return [`skill ${name} dropped: its name or description is addressed to an AI agent`];
  });
}

/** Regular `.md` files under `dir`; symbolic links are not followed (the workspace check refuses them). */
function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(path);
    return entry.isFile() && entry.name.endsWith(".md") ? [path] : [];
  });
}
