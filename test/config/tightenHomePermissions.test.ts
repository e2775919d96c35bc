import { chmodSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tightenHomePermissions } from "../../src/config/paths.js";
import { tempDir } from "../helpers/tempDir.js";

const mode = (path: string) => statSync(path).mode & 0o777;

// The store files are made readable by their owner only; a folder that happens to carry one of their
// names is the user's, and 0600 would lock them out of it (a folder without x cannot be entered).
describe.skipIf(process.platform === "win32")("tightenHomePermissions", () => {
  it("tightens the root and the store files, and leaves a folder named like a store file as it was", () => {
    const home = tempDir();
    chmodSync(home, 0o755);
    writeFileSync(join(home, "config.yaml"), "");
    chmodSync(join(home, "config.yaml"), 0o644);
    mkdirSync(join(home, "cairn.db"));
    chmodSync(join(home, "cairn.db"), 0o755);

    const changed = tightenHomePermissions(home);

    expect(changed).toEqual([`${home} 755->700`, `${join(home, "config.yaml")} 644->600`]);
    expect(mode(home)).toBe(0o700);
    expect(mode(join(home, "config.yaml"))).toBe(0o600);
    expect(mode(join(home, "cairn.db"))).toBe(0o755);
  });
});
