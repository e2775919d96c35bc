import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..", "..");
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string; bin: { cairn: string } };
const bin = join(root, pkg.bin.cairn);
const built = existsSync(bin);
if (!built) console.warn(`built CLI suite skipped: ${bin} is missing (run npm run build)`);

// `npx cairn` in a clone executes the package's bin file directly, as a program.
describe.skipIf(!built)("the built CLI", () => {
  it("runs as a program, the way npx starts it", () => {
    const result = spawnSync(bin, ["--version"], { encoding: "utf8" });
    expect(result.error?.message).toBeUndefined();
    expect(result.stdout.trim()).toBe(pkg.version);
  });
});
