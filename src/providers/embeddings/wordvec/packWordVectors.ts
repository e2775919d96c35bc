import { createHash } from "node:crypto";
import {
  DIGEST_AT,
  DIGEST_BYTES,
  HEADER_BYTES,
  MAGIC,
  PROBABILITY_AT,
  recordBytes,
  SCALE_AT,
  VECTOR_AT,
  WORD_BYTES,
} from "./wordVectorFormat.js";

export interface WordVectorEntry {
  word: string;
  vector: Float32Array;
  /** The word's share of the training text's tokens. */
  probability: number;
}

/**
 * Writes word vectors in the binary-searchable layout of wordVectorFormat.ts. The vectors are centred
 * first (the frequency-weighted mean is subtracted): trained word vectors share a common direction that
 * makes every pair of texts look alike (cosines bunch near .7), and removing it spreads them. Each
 * centred vector is quantized to int8 with its own scale (max |value| / 127).
 */
export function packWordVectors(entries: WordVectorEntry[]): Buffer {
  const first = entries[0];
  if (!first) throw new Error("no word vectors to pack");
  const dimensions = first.vector.length;
  const mean = new Float64Array(dimensions);
  let mass = 0;
  for (const e of entries) {
    for (let i = 0; i < dimensions; i++) mean[i]! += e.probability * (e.vector[i] ?? 0);
    mass += e.probability;
  }
  for (let i = 0; i < dimensions; i++) mean[i]! /= mass;

  const unique = new Map<string, { key: Buffer; entry: WordVectorEntry }>();
  for (const entry of entries) {
    const key = Buffer.from(entry.word, "utf8");
    if (key.length === 0 || key.length > WORD_BYTES || unique.has(entry.word)) continue;
    unique.set(entry.word, { key, entry });
  }
  const sorted = [...unique.values()].sort((a, b) => Buffer.compare(a.key, b.key));
  const size = recordBytes(dimensions);
  const out = Buffer.alloc(HEADER_BYTES + sorted.length * size);
  out.write(MAGIC, 0, "ascii");
  out.writeUInt32LE(dimensions, 4);
  out.writeUInt32LE(sorted.length, 8);
  out.writeUInt32LE(size, 12);
  out.writeUInt32LE(HEADER_BYTES, 16);
  sorted.forEach(({ key, entry }, index) => {
    const at = HEADER_BYTES + index * size;
    key.copy(out, at);
    const centred = Array.from(entry.vector, (v, i) => v - mean[i]!);
    const max = Math.max(...centred.map(Math.abs));
    const scale = max > 0 ? max / 127 : 1;
    out.writeFloatLE(scale, at + SCALE_AT);
    out.writeFloatLE(entry.probability, at + PROBABILITY_AT);
    for (let i = 0; i < dimensions; i++) out.writeInt8(Math.round(centred[i]! / scale), at + VECTOR_AT + i);
  });
  createHash("sha256").update(out.subarray(HEADER_BYTES)).digest().copy(out, DIGEST_AT, 0, DIGEST_BYTES);
  return out;
}
