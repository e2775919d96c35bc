import { closeSync, openSync, readSync } from "node:fs";
import { CairnError, errorMessage } from "../../../util/errors.js";
import {
  DIGEST_AT,
  DIGEST_BYTES,
  HEADER_BYTES,
  MAGIC,
  PROBABILITY_AT,
  SCALE_AT,
  VECTOR_AT,
  WORD_BYTES,
} from "./wordVectorFormat.js";

export interface WordVector {
  vector: Float32Array;
  probability: number;
}

/**
 * Read access to a word-vector file (wordVectorFormat.ts) without loading it: the header is read on
 * first use, and each lookup is a binary search that reads ~log2(n) fixed-size records from disk.
 * Found and missing words are remembered, so embedding many texts reads each word once.
 */
export class WordVectorFile {
  private fd: number | undefined;
  private header: { dimensions: number; count: number; recordBytes: number; start: number; digest: string } | undefined;
  private readonly cache = new Map<string, WordVector | null>();
  private scratch: Buffer = Buffer.alloc(0);

  constructor(readonly path: string) {}

  get dimensions(): number {
    return this.open().dimensions;
  }

  /** A digest of the records, written by the packer: identifies the vector space. */
  get digest(): string {
    return this.open().digest;
  }

  /** The word's vector, or undefined when the file does not hold it. */
  lookup(word: string): WordVector | undefined {
    const cached = this.cache.get(word);
    if (cached !== undefined) return cached ?? undefined;
    const found = this.search(word);
    if (this.cache.size >= 100_000) this.cache.clear();
    this.cache.set(word, found ?? null);
    return found;
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  private open() {
    if (this.header) return this.header;
    let fd: number;
    try {
      fd = openSync(this.path, "r");
    } catch (error) {
      throw new CairnError(
        "config_invalid",
        `cannot read the word vectors at ${this.path} (${errorMessage(error)}): point embeddings.model at a file built by scripts/build-word-vectors.ts, or leave it unset for the shipped one`,
      );
    }
    const head = Buffer.alloc(HEADER_BYTES);
    readSync(fd, head, 0, HEADER_BYTES, 0);
    if (head.toString("ascii", 0, 4) !== MAGIC) {
      closeSync(fd);
      throw new CairnError(
        "config_invalid",
        `${this.path} is not a word-vector file: rebuild it with scripts/build-word-vectors.ts`,
      );
    }
    this.fd = fd;
    this.header = {
      dimensions: head.readUInt32LE(4),
      count: head.readUInt32LE(8),
      recordBytes: head.readUInt32LE(12),
      start: head.readUInt32LE(16),
      digest: head.toString("hex", DIGEST_AT, DIGEST_AT + DIGEST_BYTES),
    };
    this.scratch = Buffer.alloc(this.header.recordBytes);
    return this.header;
  }

  private search(word: string): WordVector | undefined {
    const key = Buffer.from(word, "utf8");
    if (key.length === 0 || key.length > WORD_BYTES) return undefined;
    const { count, recordBytes, start, dimensions } = this.open();
    const record = this.scratch;
    let lo = 0;
    let hi = count;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      readSync(this.fd!, record, 0, recordBytes, start + mid * recordBytes);
      const order = compareWord(key, record);
      if (order === 0) {
        const scale = record.readFloatLE(SCALE_AT);
        const vector = new Float32Array(dimensions);
        for (let i = 0; i < dimensions; i++) vector[i] = record.readInt8(VECTOR_AT + i) * scale;
        return { vector, probability: record.readFloatLE(PROBABILITY_AT) };
      }
      if (order < 0) hi = mid;
      else lo = mid + 1;
    }
    return undefined;
  }
}

/** Orders `key` against the zero-padded word at the start of `record`, byte by byte (Buffer.compare order). */
function compareWord(key: Buffer, record: Buffer): number {
  for (let i = 0; i < WORD_BYTES; i++) {
    const a = i < key.length ? key[i]! : 0;
    const b = record[i]!;
    if (a !== b) return a < b ? -1 : 1;
    if (a === 0) return 0;
  }
  return 0;
}
