// Builds src/providers/embeddings/wordvec/wordvec.bin, the word vectors behind the `wordvec` embedding
// provider (docs/embeddings.md), and sources.tsv beside it: every source of the training text and its
// licence. Only permissively licensed text is used, and nothing from the project's benchmarks.
//
// Sources:
// - Debian packages: the documentation and READMEs of the JavaScript tool chain (jest, eslint, webpack,
//   mocha, typescript, babel, yarn and the node-* packages they depend on) and documentation packages
//   of the tools agents work with (Python, Node.js, PostgreSQL, SQLite, Django, SQLAlchemy, pytest, Go,
//   Docker, CMake, nginx, tox ...). The licence is read from each package's debian/copyright (the
//   `Files: *` paragraph).
// - npm: the READMEs of the packages in this checkout's node_modules (licence from package.json) and of
//   a short list of developer tools (`npm view NAME readme license`).
//
// Steps (each cached in --work, so a rerun resumes): fetch, clean (cairn's own tokenizer, one paragraph a
// line, duplicates dropped), train (`fasttext skipgram -thread 2`), pack (vocabulary cut, int8 vectors with
// a per-vector scale, records sorted by word for binary search: see wordVectorFile.ts).
//
// Needs: apt-get, dpkg-deb, npm, fasttext (`apt-get install -y fasttext`). Run:
//   npx tsx scripts/build-word-vectors.ts [--work DIR] [--steps fetch,clean,train,pack]
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  createReadStream,
  createWriteStream,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { gunzipSync } from "node:zlib";
import { words } from "../src/text/tokenize.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const { values } = parseArgs({
  options: {
    work: { type: "string" },
    steps: { type: "string" },
    out: { type: "string" },
    vocabulary: { type: "string" },
    dim: { type: "string" },
    epoch: { type: "string" },
  },
});
const work = values.work ?? join(tmpdir(), "cairn-word-vectors");
const steps = new Set((values.steps ?? "fetch,clean,train,pack").split(","));
const outDir = values.out ?? join(root, "src/providers/embeddings/wordvec");
const VOCABULARY = Number(values.vocabulary ?? 60_000);
const DIM = Number(values.dim ?? 96);
const EPOCH = Number(values.epoch ?? 5);
mkdirSync(work, { recursive: true });

/** Debian packages whose node-* dependencies are fetched too: the JavaScript tool chain. */
const DEBIAN_JS_SEEDS = [
  "jest",
  "eslint",
  "webpack",
  "mocha",
  "gulp",
  "node-typescript",
  "node-express",
  "node-babel7",
  "yarnpkg",
  "node-sinon",
  "node-yargs",
  "node-commander",
  "node-ws",
];
/** Documentation packages fetched alone. */
const DEBIAN_DOCS = [
  "nodejs-doc",
  "python3.11-doc",
  "postgresql-doc-15",
  "python-django-doc",
  "python-sqlalchemy-doc",
  "golang-1.19-doc",
  "docker-doc",
  "nginx-doc",
  "sqlite3-doc",
  "cmake-doc",
  "python-pytest-doc",
  "python-flask-doc",
  "python-requests-doc",
  "sphinx-doc",
  "python-celery-doc",
  "tox",
  "pre-commit",
];
/** Developer tools whose READMEs carry the words agents use (test runners, package managers, deploys). */
const NPM_TOOLS = [
  "vitest",
  "pnpm",
  "playwright",
  "@playwright/test",
  "cypress",
  "turbo",
  "nx",
  "lerna",
  "prisma",
  "drizzle-orm",
  "drizzle-kit",
  "knex",
  "typeorm",
  "sequelize",
  "next",
  "vite",
  "rollup",
  "esbuild",
  "tsx",
  "ts-node",
  "prettier",
  "husky",
  "lint-staged",
  "dotenv",
  "pm2",
  "nodemon",
  "concurrently",
  "wrangler",
  "vercel",
  "netlify-cli",
  "serverless",
  "aws-cdk",
  "msw",
  "supertest",
  "testcontainers",
  "@changesets/cli",
  "semantic-release",
  "@kubernetes/client-node",
  "zod",
  "pino",
  "winston",
  "ioredis",
  "pg",
  "mongoose",
  "graphql",
  "@trpc/server",
  "jest",
  "eslint",
  "typescript-eslint",
  "@biomejs/biome",
  "npm-check-updates",
  "verdaccio",
  "docker-compose",
  "dockerode",
  "sentry-cli",
  "@sentry/node",
  "openapi-typescript",
  "storybook",
  "webpack-dev-server",
  "nock",
];

/** SPDX and Debian short names of permissive licences (lowercase). */
const PERMISSIVE = new Set([
  "mit",
  "expat",
  "isc",
  "bsd-2-clause",
  "bsd-3-clause",
  "bsd-2",
  "bsd-3",
  "0bsd",
  "apache-2.0",
  "apache-2",
  "psf-2",
  "psf-2.0",
  "python-2.0",
  "postgresql",
  "public-domain",
  "zlib",
  "cc0-1.0",
  "cc0",
  "unlicense",
  "blueoak-1.0.0",
  "mit-0",
  "x11",
  // Debian's short names: Apache without a version in Debian's copyright files is 2.0; Go's licence is BSD-3-Clause.
  "apache",
  "go",
]);

/** Packages whose debian/copyright is not machine-readable, read by hand. */
const DEBIAN_LICENCE_BY_HAND: Record<string, string> = {
  "python3.11-doc": "PSF-2.0",
};

/** Permissive when every `and` part has a permissive alternative among its `or` parts. */
export function isPermissive(licence: string): boolean {
  const expression = licence.toLowerCase().replace(/[()]/g, " ");
  const parts = expression.split(/\s+and\s+/);
  return parts.every((part) =>
    part
      .split(/\s+or\s+|\s*,\s*/)
      .map((alt) =>
        alt
          .trim()
          .replace(/\s+with\s+.*$/, "")
          .replace(/~.*$/, ""),
      )
      .some((alt) => PERMISSIVE.has(alt)),
  );
}

interface Source {
  kind: "debian" | "npm";
  name: string;
  version: string;
  licence: string;
  files: string[];
}

function run(cmd: string, args: string[], cwd?: string): string {
  return execFileSync(cmd, args, {
    cwd,
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
    stdio: ["ignore", "pipe", "pipe"],
  });
}

function debianPackages(): string[] {
  const deps = run("apt-cache", [
    "depends",
    "--recurse",
    "--no-recommends",
    "--no-suggests",
    "--no-conflicts",
    "--no-breaks",
    "--no-replaces",
    "--no-enhances",
    ...DEBIAN_JS_SEEDS,
  ])
    .split("\n")
    .filter((line) => /^node-[a-z0-9.+-]+$/.test(line));
  return [...new Set([...DEBIAN_JS_SEEDS, ...DEBIAN_DOCS, ...deps])].sort();
}

/** The licence of the `Files: *` paragraph of a machine-readable debian/copyright, if any. */
function debianLicence(copyright: string): string | undefined {
  for (const paragraph of copyright.split(/\n\s*\n/)) {
    if (!/^Files:\s*\*\s*$/m.test(paragraph)) continue;
    return paragraph.match(/^License:\s*(.+)$/m)?.[1]?.trim();
  }
  return undefined;
}

const TEXT_FILE = /\.(md|markdown|txt|rst|html?)(\.gz)?$|^readme(\.gz)?$/i;
const SKIP_FILE = /^(copyright|changelog|changelog\.debian|news|history|changes|authors|license|licence)/i;

function walk(dir: string, out: string[] = []): string[] {
  if (!existsSync(dir)) return out;
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) continue;
    if (stat.isDirectory()) walk(path, out);
    else out.push(path);
  }
  return out;
}

function fetchDebian(): Source[] {
  const debDir = join(work, "deb");
  const extractDir = join(work, "deb-extract");
  mkdirSync(debDir, { recursive: true });
  mkdirSync(extractDir, { recursive: true });
  const names = debianPackages();
  const have = new Set(readdirSync(debDir).map((f) => f.split("_")[0]));
  const missing = names.filter((n) => !have.has(n));
  for (let i = 0; i < missing.length; i += 50) {
    try {
      run("apt-get", ["download", ...missing.slice(i, i + 50)], debDir);
    } catch {
      // One unknown name fails the batch: fetch the batch one by one and skip what is not there.
      for (const name of missing.slice(i, i + 50)) {
        try {
          run("apt-get", ["download", name], debDir);
        } catch {
          console.warn(`skip ${name}: not downloadable`);
        }
      }
    }
  }
  const sources: Source[] = [];
  for (const deb of readdirSync(debDir).filter((f) => f.endsWith(".deb"))) {
    const [name, version] = deb.split("_") as [string, string];
    if (!names.includes(name)) continue;
    const dir = join(extractDir, name);
    if (!existsSync(dir)) run("dpkg-deb", ["-x", join(debDir, deb), dir]);
    const copyrightPath = join(dir, "usr/share/doc", name, "copyright");
    const licence =
      DEBIAN_LICENCE_BY_HAND[name] ??
      (existsSync(copyrightPath) ? debianLicence(readFileSync(copyrightPath, "utf8")) : undefined);
    if (!licence || !isPermissive(licence)) {
      console.warn(`skip ${name}: licence ${licence ?? "unknown"}`);
      continue;
    }
    const files = [...walk(join(dir, "usr/share/doc")), ...walk(join(dir, "usr/share/nodejs"))].filter((f) => {
      const base = basename(f);
      if (!TEXT_FILE.test(base) || SKIP_FILE.test(base)) return false;
      return !f.includes("/node_modules/") || /readme/i.test(base);
    });
    if (files.length === 0) continue;
    sources.push({ kind: "debian", name, version: decodeURIComponent(version), licence, files: preferSources(files) });
  }
  return sources;
}

/** Sphinx trees carry each page twice (rst source in _sources, and html): keep the source. */
function preferSources(files: string[]): string[] {
  const sphinx = files.some((f) => f.includes("/_sources/"));
  return sphinx ? files.filter((f) => !/\.html?(\.gz)?$/i.test(f)) : files;
}

function packageLicence(pkg: { license?: unknown; licenses?: unknown }): string | undefined {
  const licence = pkg.license ?? pkg.licenses;
  if (typeof licence === "string") return licence;
  if (licence && typeof licence === "object" && "type" in licence) return String((licence as { type: unknown }).type);
  if (Array.isArray(licence)) return licence.map((l) => (typeof l === "string" ? l : l?.type)).join(" OR ");
  return undefined;
}

function fetchNodeModules(): Source[] {
  const sources = new Map<string, Source>();
  const visit = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir)) {
      if (entry.startsWith(".")) continue;
      const path = join(dir, entry);
      if (entry.startsWith("@")) {
        visit(path);
        continue;
      }
      const manifest = join(path, "package.json");
      if (!existsSync(manifest)) continue;
      const pkg = JSON.parse(readFileSync(manifest, "utf8"));
      const licence = packageLicence(pkg);
      const readme = readdirSync(path).find((f) => /^readme(\.md|\.markdown|\.txt)?$/i.test(f));
      if (readme && licence && isPermissive(licence) && !sources.has(pkg.name)) {
        sources.set(pkg.name, {
          kind: "npm",
          name: pkg.name,
          version: pkg.version,
          licence,
          files: [join(path, readme)],
        });
      }
      visit(join(path, "node_modules"));
    }
  };
  visit(join(root, "node_modules"));
  return [...sources.values()];
}

function fetchNpmTools(known: Set<string>): Source[] {
  const dir = join(work, "npm");
  mkdirSync(dir, { recursive: true });
  const sources: Source[] = [];
  for (const name of NPM_TOOLS) {
    if (known.has(name)) continue;
    const file = join(dir, `${name.replace("/", "__")}.json`);
    if (!existsSync(file)) {
      try {
        writeFileSync(file, run("npm", ["view", name, "name", "version", "license", "readme", "--json"]));
      } catch {
        console.warn(`skip npm ${name}: not found`);
        continue;
      }
    }
    const info = JSON.parse(readFileSync(file, "utf8"));
    const licence = typeof info.license === "string" ? info.license : undefined;
    if (!licence || !isPermissive(licence) || typeof info.readme !== "string" || info.readme.length < 200) continue;
    const readme = join(dir, `${name.replace("/", "__")}.md`);
    writeFileSync(readme, info.readme);
    sources.push({ kind: "npm", name, version: info.version, licence, files: [readme] });
  }
  return sources;
}

function fetchAll(): void {
  const debian = fetchDebian();
  const nodeModules = fetchNodeModules();
  const npm = fetchNpmTools(new Set(nodeModules.map((s) => s.name)));
  const sources = [...debian, ...nodeModules, ...npm];
  writeFileSync(join(work, "sources.json"), JSON.stringify(sources));
  console.log(`fetched ${sources.length} sources (${debian.length} debian, ${nodeModules.length + npm.length} npm)`);
}

/** Plain text of a documentation file: markup, links and badges out, code kept (commands are what agents say). */
export function plainText(raw: string, name: string): string {
  let text = raw;
  if (/\.html?(\.gz)?$/i.test(name)) {
    text = text
      .replace(/<(script|style)[\s\S]*?<\/\1>/gi, " ")
      .replace(/<\/(p|div|h\d|li|pre|tr|dd|dt|table|section)>|<br\s*\/?>/gi, "\n\n")
      .replace(/<[^>]+>/g, " ")
      .replace(/&[a-z]+;|&#\d+;/gi, " ");
  }
  return text
    .replace(/!\[[^\]]*\]\([^)]*\)/g, " ")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/https?:\/\/\S+/g, " ")
    .replace(/<[^>\n]{1,200}>/g, " ");
}

const MAX_BYTES_PER_SOURCE = 6 * 1024 * 1024;

function clean(): void {
  const sources: Source[] = JSON.parse(readFileSync(join(work, "sources.json"), "utf8"));
  const out = createWriteStream(join(work, "corpus.txt"));
  const seen = new Set<string>();
  const manifest: string[] = ["kind\tname\tversion\tlicence\tbytes"];
  let total = 0;
  const unreadable: string[] = [];
  for (const source of sources) {
    let bytes = 0;
    for (const file of source.files) {
      if (bytes >= MAX_BYTES_PER_SOURCE) break;
      let raw: string;
      try {
        const buffer = readFileSync(file);
        raw = (file.endsWith(".gz") ? gunzipSync(buffer) : buffer).toString("utf8");
      } catch (error) {
        unreadable.push(`${file}: ${(error as Error).message}`);
        continue;
      }
      for (const paragraph of plainText(raw, file).split(/\n\s*\n/)) {
        const tokens = words(paragraph).filter((w) => w.length < 40);
        if (tokens.length < 4) continue;
        const line = tokens.join(" ");
        const key = createHash("sha1").update(line).digest("base64");
        if (seen.has(key)) continue;
        seen.add(key);
        out.write(`${line}\n`);
        bytes += line.length + 1;
      }
    }
    if (bytes > 0) manifest.push([source.kind, source.name, source.version, source.licence, bytes].join("\t"));
    total += bytes;
  }
  out.end();
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, "sources.tsv"), `${manifest.join("\n")}\n`);
  console.log(`corpus: ${(total / 1e6).toFixed(1)} MB from ${manifest.length - 1} sources`);
  if (unreadable.length > 0)
    console.warn(`skipped ${unreadable.length} unreadable files, e.g. ${unreadable.slice(0, 3).join("; ")}`);
}

function train(): void {
  const args = [
    "skipgram",
    "-input",
    join(work, "corpus.txt"),
    "-output",
    join(work, "model"),
    "-dim",
    String(DIM),
    "-epoch",
    String(EPOCH),
    "-minCount",
    "5",
    // Only whole words are shipped, so subword n-grams would cost training time (several times over)
    // for what they give: better vectors for rare words, which the vocabulary cut drops anyway.
    "-minn",
    "0",
    "-maxn",
    "0",
    "-thread",
    "2",
    "-ws",
    "5",
    "-seed",
    "1",
  ];
  execFileSync("fasttext", args, { stdio: "inherit" });
}

async function pack(): Promise<void> {
  // model.vec lists words by descending frequency; counts come from the corpus itself.
  const counts = new Map<string, number>();
  const lines = createInterface({ input: createReadStream(join(work, "corpus.txt")) });
  let tokens = 0;
  for await (const line of lines) {
    for (const w of line.split(" ")) {
      counts.set(w, (counts.get(w) ?? 0) + 1);
      tokens++;
    }
  }
  const vectors: { word: string; vector: Float32Array; probability: number }[] = [];
  const vec = createInterface({ input: createReadStream(join(work, "model.vec")) });
  let first = true;
  for await (const line of vec) {
    if (first) {
      first = false;
      continue;
    }
    if (vectors.length >= VOCABULARY) break;
    const parts = line.trimEnd().split(" ");
    const word = parts[0]!;
    if (Buffer.byteLength(word) > 24 || (/^\d+$/.test(word) && word.length > 4)) continue;
    vectors.push({
      word,
      vector: Float32Array.from(parts.slice(1).map(Number)),
      probability: (counts.get(word) ?? 1) / tokens,
    });
  }
  const { packWordVectors } = await import("../src/providers/embeddings/wordvec/packWordVectors.js");
  const file = packWordVectors(vectors);
  writeFileSync(join(outDir, "wordvec.bin"), file);
  console.log(`packed ${vectors.length} words, ${(file.length / 1e6).toFixed(1)} MB`);
}

if (steps.has("fetch")) fetchAll();
if (steps.has("clean")) clean();
if (steps.has("train")) train();
if (steps.has("pack")) await pack();
