import { describe, expect, it } from "vitest";
import { entropyThreshold, isHighEntropy, shannonEntropy } from "../../src/redact/entropy.js";

describe("shannonEntropy", () => {
  it("is 0 for empty and repeated strings and log2(n) for n distinct characters", () => {
    expect(shannonEntropy("")).toBe(0);
    expect(shannonEntropy("aaaa")).toBe(0);
    expect(shannonEntropy("ab")).toBeCloseTo(1);
    expect(shannonEntropy("0123456789abcdef")).toBeCloseTo(4);
  });

  it("separates identifiers from generated strings", () => {
    expect(shannonEntropy("hello_world_token")).toBeLessThan(3.5);
    expect(shannonEntropy("Zx81mZ0pAq7Lk2Jd9Ws4Pq0Rt6Yu1Io3")).toBeGreaterThan(4);
  });
});

describe("entropyThreshold", () => {
  it("is 3.0 for long strings and lower for strings too short to reach it", () => {
    expect(entropyThreshold(40)).toBe(3);
    expect(entropyThreshold(8)).toBeCloseTo(2.4);
    expect(entropyThreshold(1)).toBe(0);
  });

  it("lets short random values through and keeps repeated ones out", () => {
    expect(isHighEntropy("a8Fk2pQz")).toBe(true);
    expect(isHighEntropy("aaaaaaaabbbbbbbb")).toBe(false);
  });
});

describe("isHighEntropy at its threshold", () => {
  it("counts a value exactly at the threshold as random", () => {
    // Eight symbols, each twice: exactly 3 bits per character, the bar for 16 characters.
    expect(shannonEntropy("abcdefghabcdefgh")).toBe(3);
    expect(isHighEntropy("abcdefghabcdefgh")).toBe(true);
  });
});
