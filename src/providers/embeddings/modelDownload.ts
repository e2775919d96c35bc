import { createHash, type Hash } from "node:crypto";
import { createWriteStream, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { pipeline } from "node:stream/promises";
import { embeddingDtypes } from "../../config/schema.js";
import { ProviderError } from "../providerError.js";
import { proxyFetch } from "../proxyFetch.js";
import { bodyStart, scrubSecrets } from "../scrub.js";
import {
  type EmbeddingDtype,
  locateModel,
  MANIFEST_FILE,
  MODEL_CONFIG_FILES,
  type ModelManifest,
  onnxFileFor,
} from "./transformersModel.js";

export interface ModelDownloadOptions {
  /** A hub id, `owner/name`. */
  id: string;
  /** A commit, branch or tag; a branch or tag is resolved to its commit first, and the files fetched at it. */
  revision: string;
  dtype: EmbeddingDtype;
  /** The hub's base URL (https://huggingface.co, a mirror, or a loopback server in tests). */
  hub: string;
  modelsDir: string;
  /** A hub access token, for gated models (HF_TOKEN); never quoted in an error. */
  token?: string;
  /** One line per file, for the command's progress. */
  onFile?: (line: string) => void;
  /** Bounds the metadata request and each file's transfer. */
  timeoutMs?: number;
}

export interface ModelDownloadResult {
  dir: string;
  manifest: ModelManifest;
  /** Files fetched now; the others were already there with the right checksum. */
  fetched: string[];
}

/** A file as the hub's API lists it (`GET /api/models/{id}/revision/{rev}?blobs=true`, `siblings`). */
interface Sibling {
  rfilename: string;
  size?: number;
  /** The git blob's SHA-1: the checksum of a file kept in git. */
  blobId?: string;
  /** A file kept in Git LFS (the weights): its SHA-256 and size. */
  lfs?: { sha256?: string; size?: number };
}

interface Expected {
  path: string;
  size: number;
  sha256?: string;
  gitSha1?: string;
}

const PROVIDER = "model-download";
const DEFAULT_TIMEOUT_MS = 30 * 60_000;
const HUB_ID = /^[A-Za-z0-9][\w.-]*\/[\w.-]+$/;
const COMMIT = /^[0-9a-f]{40}$/;

/**
 * Downloads the files a feature-extraction model needs (its config, its tokenizer and the dtype's ONNX
 * weights) at one commit into `<modelsDir>/<owner>/<name>`, each checked against the checksum the
 * hub lists for that commit (SHA-256 for LFS files, the git blob SHA-1 for the others) before it
 * replaces anything. A file already there with the right checksum is kept, so an interrupted download
 * resumes. The manifest is written last: a model is complete when it names the commit.
 * Only the explicit command calls this; recall and the pipeline never download.
 */
export async function downloadModel(options: ModelDownloadOptions): Promise<ModelDownloadResult> {
  if (!HUB_ID.test(options.id)) {
    throw failure(`"${options.id}" is not a hub model id (owner/name, e.g. Xenova/all-MiniLM-L6-v2)`);
  }
  const hub = options.hub.replace(/\/+$/, "");
  const headers: Record<string, string> = options.token ? { authorization: `Bearer ${options.token}` } : {};
  const secrets = [options.token];
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const info = await fetchInfo({ ...options, hub, headers, secrets, timeoutMs });
  const expected = expectedFiles(options, info.siblings);
  const { dir } = locateModel(options.id, options.modelsDir);
  mkdirSync(join(dir, "onnx"), { recursive: true });
  const fetched: string[] = [];
  for (const file of expected) {
    const target = join(dir, file.path);
    if (existsSync(target) && checksumProblem(file, hashFile(target)) === undefined) {
      options.onFile?.(`${file.path}: already there, checksum verified`);
      continue;
    }
    const url = `${hub}/${options.id}/resolve/${info.sha}/${file.path.split("/").map(encodeURIComponent).join("/")}`;
    await fetchFile({ url, target, file, headers, secrets, timeoutMs });
    fetched.push(file.path);
    options.onFile?.(`${file.path}: ${file.size} bytes, checksum verified`);
  }
  const manifest: ModelManifest = {
    id: options.id,
    revision: info.sha,
    hub,
    downloadedAt: new Date().toISOString(),
    files: expected,
  };
  writeAtomically(join(dir, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  return { dir, manifest, fetched };
}

async function fetchInfo(request: {
  id: string;
  revision: string;
  hub: string;
  headers: Record<string, string>;
  secrets: Array<string | undefined>;
  timeoutMs: number;
}): Promise<{ sha: string; siblings: Sibling[] }> {
  const where = `${request.id} at ${request.revision}`;
  const url = `${request.hub}/api/models/${request.id}/revision/${encodeURIComponent(request.revision)}?blobs=true`;
  const response = await get(url, request);
  const text = await response.text();
  if (response.status === 404 || response.status === 401) {
    throw failure(
      `the hub at ${request.hub} has no model ${where} (HTTP ${response.status}): check the id and the revision`,
    );
  }
  if (!response.ok) throw httpFailure(response.status, text, request.secrets);
  let info: { sha?: unknown; siblings?: unknown };
  try {
    info = JSON.parse(text) as typeof info;
  } catch {
    throw failure(`the hub's answer for ${where} is not JSON: ${bodyStart(scrubSecrets(text, request.secrets))}`);
  }
  if (typeof info.sha !== "string" || !COMMIT.test(info.sha) || !Array.isArray(info.siblings)) {
    throw failure(`the hub's answer for ${where} names no commit or no files`);
  }
  if (COMMIT.test(request.revision) && info.sha !== request.revision) {
    throw failure(`the hub answered commit ${info.sha} for ${where}: refusing files of another commit`);
  }
  return { sha: info.sha, siblings: info.siblings as Sibling[] };
}

/** The files to fetch, with their checksums; an error names what the revision lacks. */
function expectedFiles(options: ModelDownloadOptions, siblings: Sibling[]): Expected[] {
  const byName = new Map(siblings.map((s) => [s.rfilename, s]));
  const weights = onnxFileFor(options.dtype);
  if (!byName.has(weights)) {
    const offered = embeddingDtypes.filter((dtype) => byName.has(onnxFileFor(dtype)));
    const instead =
      offered.length > 0 ? `: use --dtype ${offered.join(" or ")}` : ": it has no ONNX export for transformers.js";
    throw failure(`${options.id} at ${options.revision} has no ${weights} (dtype ${options.dtype})${instead}`);
  }
  // Weights over 2 GB are split: the graph in .onnx, the tensors in .onnx_data beside it.
  const external = [`${weights}_data`].filter((name) => byName.has(name));
  return [...MODEL_CONFIG_FILES, weights, ...external].map((path) => {
    const sibling = byName.get(path);
    if (!sibling)
      throw failure(`${options.id} at ${options.revision} has no ${path}: it is not a transformers.js model`);
    if (sibling.lfs?.sha256 && sibling.lfs.size !== undefined) {
      return { path, size: sibling.lfs.size, sha256: sibling.lfs.sha256 };
    }
    if (sibling.blobId && sibling.size !== undefined) return { path, size: sibling.size, gitSha1: sibling.blobId };
    throw failure(`the hub listed no checksum for ${path}: refusing a file that cannot be verified`);
  });
}

async function fetchFile(request: {
  url: string;
  target: string;
  file: Expected;
  headers: Record<string, string>;
  secrets: Array<string | undefined>;
  timeoutMs: number;
}): Promise<void> {
  const { file, target } = request;
  const response = await get(request.url, request);
  if (!response.ok || !response.body) throw httpFailure(response.status, await response.text(), request.secrets);
  const partial = `${target}.part`;
  const hashes = newHashes(file.size);
  let size = 0;
  try {
    await pipeline(
      response.body,
      async function* (chunks: AsyncIterable<Uint8Array>) {
        for await (const chunk of chunks) {
          size += chunk.length;
          hashes.sha256.update(chunk);
          hashes.gitSha1.update(chunk);
          yield chunk;
        }
      },
      createWriteStream(partial),
    );
  } catch (error) {
    rmSync(partial, { force: true });
    throw failure(
      `${file.path}: the transfer failed (${error instanceof Error ? error.message : String(error)})`,
      true,
    );
  }
  const problem = size !== file.size ? `${size} bytes, expected ${file.size}` : checksumProblem(file, digests(hashes));
  if (problem) {
    rmSync(partial, { force: true });
    throw failure(
      `${file.path} does not match the hub's checksum (${problem}): nothing was kept; run the command again`,
    );
  }
  renameSync(partial, target);
}

interface Hashes {
  sha256: Hash;
  gitSha1: Hash;
}

/** Both checksums at once: the git blob's SHA-1 hashes a `blob <size>\0` header before the bytes. */
function newHashes(size: number): Hashes {
  return { sha256: createHash("sha256"), gitSha1: createHash("sha1").update(`blob ${size}\0`) };
}

function digests(hashes: Hashes): { sha256: string; gitSha1: string } {
  return { sha256: hashes.sha256.digest("hex"), gitSha1: hashes.gitSha1.digest("hex") };
}

function hashFile(path: string): { sha256: string; gitSha1: string } {
  const bytes = readFileSync(path);
  const hashes = newHashes(bytes.length);
  hashes.sha256.update(bytes);
  hashes.gitSha1.update(bytes);
  return digests(hashes);
}

function checksumProblem(file: Expected, actual: { sha256: string; gitSha1: string }): string | undefined {
  if (file.sha256 !== undefined) {
    return actual.sha256 === file.sha256 ? undefined : `sha256 ${actual.sha256}, expected ${file.sha256}`;
  }
  return actual.gitSha1 === file.gitSha1 ? undefined : `git sha1 ${actual.gitSha1}, expected ${file.gitSha1}`;
}

async function get(
  url: string,
  request: { headers: Record<string, string>; secrets: Array<string | undefined>; timeoutMs: number },
) {
  try {
    return await proxyFetch(url, { headers: request.headers, signal: AbortSignal.timeout(request.timeoutMs) });
  } catch (error) {
    const detail = scrubSecrets(error instanceof Error ? error.message : String(error), request.secrets);
    throw failure(`could not reach ${new URL(url).origin}: ${detail}`, true);
  }
}

function httpFailure(status: number, text: string, secrets: Array<string | undefined>): ProviderError {
  return new ProviderError({
    provider: PROVIDER,
    kind: "http",
    message: `${PROVIDER}: HTTP ${status}: ${bodyStart(scrubSecrets(text, secrets))}`,
    isRetryable: status === 429 || status >= 500,
    statusCode: status,
  });
}

function failure(message: string, retryable = false): ProviderError {
  return new ProviderError({
    provider: PROVIDER,
    kind: retryable ? "network" : "config",
    message: `${PROVIDER}: ${message}`,
    isRetryable: retryable,
  });
}

/** A manifest is never half-written: it marks the model complete. */
function writeAtomically(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.part`;
  writeFileSync(temporary, text);
  renameSync(temporary, path);
}
