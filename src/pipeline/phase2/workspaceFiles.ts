import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { guardText, redact, stripPrivate } from "../../redact/index.js";
import { writeFileAtomic } from "../../util/atomicWrite.js";
import type { ConsolidatedFiles } from "./consolidators/types.js";
import { skillFolderName } from "./skillFolderName.js";

const MAX_FILE_BYTES = 5 * 1024 * 1024;

/** Writes consolidated files into a staging folder; skill folders not in the new set are removed. */
export function writeConsolidated(dir: string, files: ConsolidatedFiles): void {
  writeFileAtomic(join(dir, "MEMORY.md"), files.memory);
  writeFileAtomic(join(dir, "memory_summary.md"), files.summary);
  const skillsDir = join(dir, "skills");
  rmSync(skillsDir, { recursive: true, force: true });
  for (const skill of files.skills) {
    const front = `---\nname: ${skill.name}\ndescription: ${skill.description.replace(/\s+/g, " ").trim()}\n---\n\n`;
    writeFileAtomic(join(skillsDir, skill.name, "SKILL.md"), `${front}${skill.body.trim()}\n`);
  }
}

/**
 * Skill folders whose name holds a secret (an agent consolidator names its folders itself), renamed
 * by their guarded name. Returns the new names: the folder's old name is the secret.
 */
function renameSecretSkills(dir: string): string[] {
  const skills = join(dir, "skills");
  if (!existsSync(skills)) return [];
  const renamed: string[] = [];
  for (const name of readdirSync(skills)) {
    if (guardText(name) === name) continue;
    const base = skillFolderName(name) || "skill";
    let folder = base;
    for (let n = 2; existsSync(join(skills, folder)); n++) folder = `${base}-${n}`;
    renameSync(join(skills, name), join(skills, folder));
    renamed.push(join("skills", folder));
  }
  return renamed;
}

/**
 * Scans every Markdown file of the staging folder for secrets and `<private>` blocks and rewrites it
 * guarded. Runs after any consolidator, including an agent that wrote files itself. Returns the files
 * that had to be changed.
 */
export function scrubSecrets(dir: string): string[] {
  const changed = renameSecretSkills(dir);
  for (const path of listFiles(dir)) {
    if (!path.endsWith(".md")) continue;
    const text = readFileSync(path, "utf8");
    const stripped = stripPrivate(text);
    const result = redact(stripped);
    if (result.findings.length > 0 || stripped !== text) {
      writeFileAtomic(path, result.text);
      changed.push(relative(dir, path));
    }
  }
  return changed;
}

/**
 * What must hold before a workspace is published: MEMORY.md exists, memory_summary.md starts with the
 * version line, every skill has a SKILL.md with name and description front matter, and nothing is a
 * symbolic link or oversized (an agent must not plant a link that the read path would follow out).
 */
export function validateWorkspace(dir: string): string[] {
  const problems: string[] = [];
  const memory = join(dir, "MEMORY.md");
  if (!existsSync(memory) || statSync(memory).size === 0) problems.push("MEMORY.md is missing or empty");
  const summary = join(dir, "memory_summary.md");
  if (!existsSync(summary)) problems.push("memory_summary.md is missing");
  else if (readFileSync(summary, "utf8").split("\n", 1)[0]?.trim() !== "v1") {
    problems.push("memory_summary.md does not start with the version line v1");
  }
  const skills = join(dir, "skills");
  if (existsSync(skills)) {
    for (const name of readdirSync(skills)) {
      const file = join(skills, name, "SKILL.md");
      if (!existsSync(file)) {
        problems.push(`skills/${name} has no SKILL.md`);
        continue;
      }
      const front = /^---\n([\s\S]*?)\n---/.exec(readFileSync(file, "utf8"))?.[1] ?? "";
      if (!/^name:\s*\S/m.test(front) || !/^description:\s*\S/m.test(front)) {
        problems.push(`skills/${name}/SKILL.md lacks name and description front matter`);
      }
    }
  }
  for (const path of listFiles(dir, true)) {
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) problems.push(`${relative(dir, path)} is a symbolic link`);
    else if (stat.size > MAX_FILE_BYTES) problems.push(`${relative(dir, path)} is larger than 5 MB`);
  }
  return problems;
}

export function readIfExists(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}

export function ensureDir(path: string): void {
  mkdirSync(path, { recursive: true, mode: 0o700 });
}

function listFiles(dir: string, includeLinks = false): string[] {
  const out: string[] = [];
  const visit = (current: string) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const path = join(current, entry.name);
      if (entry.isSymbolicLink()) {
        if (includeLinks) out.push(path);
      } else if (entry.isDirectory()) visit(path);
      else if (entry.isFile()) out.push(path);
    }
  };
  if (existsSync(dir)) visit(dir);
  return out;
}
