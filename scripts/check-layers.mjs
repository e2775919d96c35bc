// Checks that every import in src/ points down the layers of docs/architecture.md: each module may
// import only the modules listed for it (type-only imports included, since a contract that lives in
// the wrong layer drags the layering with it). Run: node scripts/check-layers.mjs; `npm test` runs it
// through test/architecture/layering.test.ts.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const BOTTOM = ["util", "text"];
const BASE = [...BOTTOM, "agents", "project", "config", "redact", "prompts", "requests"];
const STORE = [...BASE, "sources", "store", "providers"];
const SERVICES = [...STORE, "workspace", "memory", "collection", "recall"];
const PIPELINE = [
  "pipeline/phase1",
  "pipeline/facts",
  "pipeline/hints",
  "pipeline/phase2",
  "pipeline/structural",
  "pipeline/continuity",
];

/** Module -> the modules it may import. A module always may import itself. */
export const LAYERS = {
  util: [],
  text: [],
  // What cairn knows of each coding agent, as data (src/agents/registry.ts): no adapter, no connector.
  agents: ["util", "text"],
  // Requests and config quote what a caller gave in their errors, redacted where the message is built.
  requests: ["util", "text", "redact"],
  project: ["util"],
  config: ["util", "text", "agents", "project", "redact"],
  redact: ["util", "text"],
  prompts: ["util", "text"],
  sources: ["util", "text", "agents"],
  providers: ["util", "text", "redact", "config"],
  store: ["util", "text", "project", "config", "redact", "sources"],
  workspace: ["util", "text", "project", "config"],
  memory: [...BASE, "sources", "providers", "store"],
  collection: [...BASE, "sources", "providers", "store"],
  recall: [...BASE, "providers", "store", "memory"],
  "pipeline/phase1": SERVICES,
  "pipeline/facts": [...SERVICES, "pipeline/phase1"],
  "pipeline/hints": [...SERVICES, "pipeline/phase1", "pipeline/facts"],
  "pipeline/phase2": [...SERVICES, "pipeline/phase1", "pipeline/facts"],
  "pipeline/structural": [...SERVICES, "pipeline/phase1", "pipeline/facts"],
  "pipeline/continuity": [...SERVICES, "read"],
  pipeline: [...SERVICES, ...PIPELINE],
  read: SERVICES,
  workers: [...SERVICES, ...PIPELINE, "pipeline", "read"],
  cairn: [...SERVICES, ...PIPELINE, "pipeline", "read", "workers"],
  connectors: [...BASE, "workspace", "store", "read", "workers"],
  server: [...SERVICES, ...PIPELINE, "pipeline", "read", "workers", "cairn", "connectors"],
  index: [...SERVICES, ...PIPELINE, "pipeline", "read", "workers", "cairn", "connectors", "server"],
  cli: [...SERVICES, ...PIPELINE, "pipeline", "read", "workers", "cairn", "connectors", "server"],
};

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "src");

/** The module a source file belongs to: its top folder, pipeline's stage folders, or a root file's name. */
export function moduleOf(file, root = ROOT) {
  const parts = relative(root, file).split(sep);
  if (parts.length === 1) return parts[0].replace(/\.(ts|js)$/, "");
  if (parts[0] === "pipeline" && parts.length > 2) return `pipeline/${parts[1]}`;
  return parts[0];
}

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = join(dir, entry.name);
    return entry.isDirectory() ? sourceFiles(full) : entry.name.endsWith(".ts") ? [full] : [];
  });
}

const IMPORT =
  /\b(?:import|export)\s+(?:type\s+)?(?:[^;"']*?\sfrom\s+)?["'](\.{1,2}\/[^"']+)["']|\bimport\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/g;

/** Every import against the layering, as "file: from -> to (specifier)". */
export function layerViolations(root = ROOT) {
  const problems = [];
  for (const file of sourceFiles(root)) {
    const from = moduleOf(file, root);
    const allowed = LAYERS[from];
    if (!allowed) {
      problems.push(`${relative(root, file)}: module "${from}" has no entry in LAYERS`);
      continue;
    }
    for (const match of readFileSync(file, "utf8").matchAll(IMPORT)) {
      const specifier = match[1] ?? match[2];
      const to = moduleOf(resolve(dirname(file), specifier), root);
      if (to !== from && !allowed.includes(to))
        problems.push(`${relative(root, file)}: ${from} -> ${to} (${specifier})`);
    }
  }
  return problems;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const problems = layerViolations();
  for (const problem of problems) console.log(problem);
  console.log(problems.length === 0 ? "layers: ok" : `layers: ${problems.length} imports against the layering`);
  process.exitCode = problems.length === 0 ? 0 : 1;
}
