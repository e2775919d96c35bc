/**
 * The layout of a word-vector file (little-endian), shared by its writer and its reader.
 *
 * A 32-byte header (magic "CWV1", dimensions, word count, record size, header size, 8 bytes of the
 * records' SHA-256), then fixed-size
 * records sorted by the word's UTF-8 bytes, so a word is found by binary search reading ~log2(n)
 * records and nothing else. A record: the word (UTF-8, zero-padded to WORD_BYTES), its vector's scale
 * (float32), the word's probability in the training text (float32, for SIF weighting), then the vector
 * as int8 (value = byte * scale).
 */
export const MAGIC = "CWV1";
export const HEADER_BYTES = 32;
export const DIGEST_AT = 20;
export const DIGEST_BYTES = 8;
export const WORD_BYTES = 24;
/** Offset of the scale, the probability and the int8 vector inside a record. */
export const SCALE_AT = WORD_BYTES;
export const PROBABILITY_AT = WORD_BYTES + 4;
export const VECTOR_AT = WORD_BYTES + 8;

export function recordBytes(dimensions: number): number {
  return VECTOR_AT + dimensions;
}
