import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { normalizeContent } from "../../src/memory/normalizeContent.js";

describe("normalizeContent", () => {
  it("collapses whitespace, keeps casing for storage, lowercases and strips trailing punctuation for the hash", () => {
    const n = normalizeContent("  Use   PNPM\tfor installs!!  ");
    expect(n.storageContent).toBe("Use PNPM for installs!!");
    expect(n.normalizedContent).toBe("use pnpm for installs");
    expect(n.contentHash).toBe(createHash("sha256").update("use pnpm for installs").digest("hex"));
  });

  it("gives the same hash to texts that differ only in case, spacing and trailing punctuation", () => {
    const a = normalizeContent("The build uses Vite.");
    const b = normalizeContent("the  build uses vite");
    expect(a.contentHash).toBe(b.contentHash);
    expect(a.storageContent).not.toBe(b.storageContent);
  });

  it("hashes known vectors", () => {
    expect(normalizeContent("abc").contentHash).toBe(
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    );
    // Only punctuation: the normalized text is empty, so the lowercased storage text is hashed.
    const dots = normalizeContent("...");
    expect(dots.normalizedContent).toBe("");
    expect(dots.contentHash).toBe(createHash("sha256").update("...").digest("hex"));
    expect(dots.contentHash).toHaveLength(64);
  });
});
