import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as zlib from "node:zlib";
import { errorMessage } from "../../util/errors.js";
import { type JsonLinesRead, readJsonLines } from "../jsonl.js";
import type { ParseProblem } from "../types.js";

export type Decompress = (data: Buffer) => Buffer;

export type RolloutRead = { ok: true; read: JsonLinesRead; compressed: boolean } | { ok: false; problem: ParseProblem };

export const ZSTD_UNSUPPORTED = "zstd not supported by this Node (needs >= 22.15); skipped";

/** Node >= 22.15 ships zstd in zlib; older versions (the supported floor is 20) do not. */
export function nodeZstd(): Decompress | undefined {
  const candidate = (zlib as unknown as { zstdDecompressSync?: Decompress }).zstdDecompressSync;
  return typeof candidate === "function" ? candidate.bind(zlib) : undefined;
}

/**
 * Reads a rollout's JSON lines from `from`. A `.jsonl.zst` file is decompressed whole (its offsets are
 * not resumable); an unreadable file becomes one problem instead of an exception.
 */
export function readRolloutRecords(
  path: string,
  options: { from?: { offset: number; line: number }; decompress?: Decompress } = {},
): RolloutRead {
  const { from, decompress = nodeZstd() } = options;
  try {
    if (!path.endsWith(".zst")) return { ok: true, read: readJsonLines(path, from), compressed: false };
    if (decompress === undefined) return { ok: false, problem: { file: path, reason: ZSTD_UNSUPPORTED } };
    return { ok: true, read: readCompressed(path, decompress), compressed: true };
  } catch (error) {
    return { ok: false, problem: { file: path, reason: `unreadable: ${errorMessage(error)}` } };
  }
}

function readCompressed(path: string, decompress: Decompress): JsonLinesRead {
  // readJsonLines reads files, so the plain text goes through a private temp file.
  const dir = mkdtempSync(join(tmpdir(), "cairn-zst-"));
  try {
    const plain = join(dir, "rollout.jsonl");
    writeFileSync(plain, decompress(readFileSync(path)));
    const read = readJsonLines(plain);
    return { ...read, problems: read.problems.map((problem) => ({ ...problem, file: path })) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
