/**
 * Shannon entropy of a string in bits per character, counting UTF-16 code units.
 *
 * Reference points: English words and identifiers score about 2.5-3.3; random hex reaches up to 4
 * (3.6-3.9 at 32 characters), random base62 or base64 about 4.2-5 at 32+ characters. A string of
 * n characters can never score more than log2(n), so short strings need a lower bar: see
 * `entropyThreshold`.
 */
export function shannonEntropy(text: string): number {
  if (text.length === 0) return 0;
  const counts = new Map<number, number>();
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    counts.set(code, (counts.get(code) ?? 0) + 1);
  }
  let bits = 0;
  for (const count of counts.values()) {
    const p = count / text.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/**
 * The entropy a value of this length must reach to count as random: `base` bits per character
 * (3.0 by default, just above English identifiers), lowered to 80% of the maximum log2(length) for
 * values shorter than about 13 characters, which cannot reach 3.0 even when random.
 */
export function entropyThreshold(length: number, base = 3.0): number {
  if (length <= 1) return 0;
  return Math.min(base, 0.8 * Math.log2(length));
}

/** True when `text` reaches the length-adjusted entropy threshold. */
export function isHighEntropy(text: string, base = 3.0): boolean {
  return shannonEntropy(text) >= entropyThreshold(text.length, base);
}
