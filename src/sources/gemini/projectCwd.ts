import { readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { sha256 } from "../../util/hash.js";
import { asRecord } from "../jsonl.js";
import type { ChatLocation } from "./geminiLayout.js";

/**
 * Gemini records no cwd. The project folder says where it belongs: since v0.29 `tmp/<slug>/.project_root`
 * holds the absolute project path and `projects.json` maps path → slug; older folders are named
 * sha256(path), which is also the record's `projectHash`. Returns null when none of these answers.
 */
export function projectCwd(location: ChatLocation, projectHash: string | undefined): string | null {
  if (!location.projectDir) return null;
  const marker = readText(join(location.projectDir, ".project_root"))?.trim();
  if (marker) return marker;
  if (!location.geminiDir) return null;
  const projects = asRecord(asRecord(parseJson(readText(join(location.geminiDir, "projects.json"))))?.projects);
  if (!projects) return null;
  const slug = basename(location.projectDir);
  for (const [path, value] of Object.entries(projects)) {
    if (value === slug) return path;
  }
  for (const path of Object.keys(projects)) {
    const hash = sha256(path);
    if (hash === slug || hash === projectHash) return path;
  }
  return null;
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    // Absent in older layouts; the next source is tried.
    return undefined;
  }
}

function parseJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    // A corrupt registry only costs the cwd, which is then null.
    return undefined;
  }
}
