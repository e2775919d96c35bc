import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as zlib from "node:zlib";
import { errorMessage } from "../../util/errors.js";
import { type JsonLinesRead, readJsonLines } from "../jsonl.js";
import type { ParseProblem } from "../types.js";
import { overWholeFileLimit, WHOLE_FILE_LIMIT } from "../wholeFileLimit.js";

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
  options: { from?: { offset: number; line: number }; window?: number; decompress?: Decompress } = {},
): RolloutRead {
  const { from, window, decompress = nodeZstd() } = options;
  try {
    if (!path.endsWith(".zst"))
      return {
        ok: true,
        read: readJsonLines(path, from, { standIn: droppedRecord, limits: { maxBytes: window ?? Infinity } }),
        compressed: false,
      };
    if (decompress === undefined) return { ok: false, problem: { file: path, reason: ZSTD_UNSUPPORTED } };
    // Decompressed in memory: a compressed rollout is read whole, within the whole-file limit.
    const tooLarge = overWholeFileLimit(path, WHOLE_FILE_LIMIT / 8);
    if (tooLarge) return { ok: false, problem: tooLarge };
    return { ok: true, read: readCompressed(path, decompress), compressed: true };
  } catch (error) {
    return { ok: false, problem: { file: path, reason: `unreadable: ${errorMessage(error)}` } };
  }
}

/**
 * Codex writes every record as `{"timestamp":...,"type":...,"payload":{"type":...` in this order, and
 * encrypted reasoning and token counts (dropped by the parser, often a third of a file's bytes) are
 * recognized by that prefix alone. A quote inside any string value is escaped, so the prefix cannot
 * come from text a user or tool wrote. The stand-in keeps what the parser reads of a dropped record:
 * its time and types.
 */
const DROPPED =
  /^\{"timestamp":"([0-9:.TZ+-]{10,40})","type":"(response_item|event_msg)","payload":\{"type":"(reasoning|token_count)"[,}]/;

const PAYLOAD_TYPE = '"payload":{"type":"';

export function droppedRecord(text: string): unknown {
  // Most lines are kept: two substring checks turn them away before the expression runs.
  // Searched back from where the prefix must start at the latest: a long kept line is not scanned.
  const at = text.lastIndexOf(PAYLOAD_TYPE, 100);
  if (at < 0) return undefined;
  const payloadAt = at + PAYLOAD_TYPE.length;
  if (!text.startsWith("reasoning", payloadAt) && !text.startsWith("token_count", payloadAt)) return undefined;
  const match = DROPPED.exec(text);
  if (match === null || !text.endsWith("}")) return undefined;
  const [, timestamp, type, payloadType] = match;
  if ((type === "response_item") !== (payloadType === "reasoning")) return undefined;
  return { timestamp, type, payload: { type: payloadType } };
}

function readCompressed(path: string, decompress: Decompress): JsonLinesRead {
  // readJsonLines reads files, so the plain text goes through a private temp file.
  const dir = mkdtempSync(join(tmpdir(), "cairn-zst-"));
  try {
    const plain = join(dir, "rollout.jsonl");
    writeFileSync(plain, decompress(readFileSync(path)));
    const read = readJsonLines(plain, undefined, { standIn: droppedRecord });
    return { ...read, problems: read.problems.map((problem) => ({ ...problem, file: path })) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
