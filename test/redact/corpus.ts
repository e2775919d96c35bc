import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The redaction corpora, shared by the tests and bench/redaction.ts: the labelled secrets, the
 * hand-written tricky negatives, and ordinary code and prose sampled from node_modules (always
 * present after `npm ci`, and pinned by the lockfile, so the sample is the same on every machine).
 */

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..");
const fixtures = join(root, "test", "fixtures", "secrets");

export interface LabelledSecret {
  text: string;
  /** Exact substrings that must not survive redaction. */
  secrets: string[];
  rule?: string;
  /** 1-based line in secrets.jsonl, for messages. */
  line: number;
}

export function readLabelled(): LabelledSecret[] {
  const lines = readFileSync(join(fixtures, "secrets.jsonl"), "utf8").split("\n");
  const out: LabelledSecret[] = [];
  lines.forEach((raw, index) => {
    if (raw.trim().length === 0) return;
    const parsed = JSON.parse(raw) as { text: string; secrets: string[]; rule?: string };
    out.push({ ...parsed, line: index + 1 });
  });
  return out;
}

/** Lines that look like secrets to a careless scanner and are not; blank and `#` lines skipped. */
export function readTrickyNegatives(): string[] {
  return readFileSync(join(fixtures, "ordinary.txt"), "utf8")
    .split("\n")
    .filter((line) => line.trim().length > 0 && !line.startsWith("# "));
}

/** Package folders sampled for ordinary text: docs, declarations and sources of varied style. */
const PACKAGES = [
  "typescript/lib",
  "@types/node",
  "undici-types",
  "zod",
  "yaml",
  "commander",
  "hono",
  "vite",
  "vitest",
  "@modelcontextprotocol/sdk",
  "better-sqlite3",
  "express",
  "ajv",
  "semver",
  "qs",
  "postcss",
];

const EXTENSIONS = /\.(?:md|ts|mts|cts|js|mjs|cjs)$/;

function listFiles(dir: string, out: string[]): void {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return; // a package the lockfile no longer pulls in: sample the others
  }
  for (const entry of entries.sort()) {
    if (entry === "node_modules" || entry.startsWith(".")) continue;
    const path = join(dir, entry);
    const stat = statSync(path);
    if (stat.isDirectory()) listFiles(path, out);
    else if (EXTENSIONS.test(entry) && !entry.includes(".min.") && stat.size < 2_000_000) out.push(path);
  }
}

export interface OrdinarySample {
  lines: string[];
  /** Relative path of the file each line came from, parallel to `lines`. */
  sources: string[];
  files: number;
}

/**
 * Up to `maxLines` non-blank lines, each under 2,000 characters (minified bundles are not what a
 * person types): every package's files are read in sorted order and every n-th block of `block`
 * consecutive lines is kept, n chosen so that each package contributes about equally.
 */
export function sampleOrdinaryLines(maxLines = 30_000, block = 40): OrdinarySample {
  const perPackage = Math.ceil(maxLines / PACKAGES.length);
  const sample: OrdinarySample = { lines: [], sources: [], files: 0 };
  for (const pkg of PACKAGES) {
    const files: string[] = [];
    listFiles(join(root, "node_modules", pkg), files);
    const blocks: Array<{ path: string; lines: string[] }> = [];
    for (const path of files) {
      const lines = readFileSync(path, "utf8")
        .split("\n")
        .filter((line) => line.trim().length > 0 && line.length < 2_000);
      for (let i = 0; i < lines.length; i += block) blocks.push({ path, lines: lines.slice(i, i + block) });
    }
    const stride = Math.max(1, Math.floor((blocks.length * block) / perPackage));
    const used = new Set<string>();
    let taken = 0;
    for (let i = 0; i < blocks.length && taken < perPackage; i += stride) {
      const { path, lines } = blocks[i]!;
      used.add(path);
      taken += lines.length;
      for (const line of lines) {
        sample.lines.push(line);
        sample.sources.push(relative(root, path));
      }
    }
    sample.files += used.size;
  }
  return sample;
}
