import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs script without declarations, run by `node` too.
import { LAYERS, layerViolations } from "../../scripts/check-layers.mjs";
import { tempDir } from "../helpers/tempDir.js";

describe("layering (docs/architecture.md)", () => {
  it("finds no import against the layers", () => {
    expect(layerViolations()).toEqual([]);
  });

  it("keeps the bottom layer free of cairn imports", () => {
    expect(LAYERS.text).toEqual([]);
    expect(LAYERS.util).toEqual([]);
  });

  it("keeps the agent registry data below the config and the adapters that derive from it", () => {
    // src/agents is read by the config schema and the start hook on every command: an adapter or a
    // connector imported there would load with each of them (they are bound in maps above instead).
    expect(LAYERS.agents).toEqual(["util", "text"]);
    expect(LAYERS.config).toContain("agents");
    expect(LAYERS.sources).toContain("agents");
  });

  it("reports an upward import, type-only ones included, with the file and the edge", () => {
    const root = tempDir();
    mkdirSync(join(root, "text"));
    mkdirSync(join(root, "store"));
    writeFileSync(join(root, "store", "storage.ts"), "export class Storage {}\n");
    writeFileSync(join(root, "text", "words.ts"), 'import type { Storage } from "../store/storage.js";\n');
    expect(layerViolations(root)).toEqual(["text/words.ts: text -> store (../store/storage.js)"]);
  });
});
