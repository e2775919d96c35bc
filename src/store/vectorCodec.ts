/** Float32 vectors as little-endian blobs, the layout sqlite-vec and the embeddings table share. */
export function vectorToBlob(vector: Float32Array): Buffer {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
}

export function blobToVector(blob: Buffer): Float32Array {
  // Copy: the blob's buffer may be shared and unaligned.
  const copy = new Uint8Array(blob.byteLength);
  copy.set(blob);
  return new Float32Array(copy.buffer);
}

/** One bit per dimension (1 when positive), packed low bit first: sqlite-vec's bit[] layout. */
export function binaryQuantize(vector: Float32Array): Buffer {
  const out = Buffer.alloc(Math.ceil(vector.length / 8));
  for (let i = 0; i < vector.length; i++) {
    if ((vector[i] ?? 0) > 0) out[i >> 3] = (out[i >> 3] ?? 0) | (1 << (i & 7));
  }
  return out;
}

export function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) sum += (a[i] ?? 0) * (b[i] ?? 0);
  return sum;
}
