import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { stableNodePath, versionedFolder } from "../../src/util/stableNodePath.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "cairn-node-path-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A folder on PATH holding `node`: a link to this very binary, or a shim script of its own. */
function binWith(name: string, node: "link" | "shim"): string {
  const bin = join(dir, name);
  mkdirSync(bin);
  if (node === "link") symlinkSync(process.execPath, join(bin, "node"));
  else {
    writeFileSync(join(bin, "node"), `#!/bin/sh\nexec ${process.execPath} "$@"\n`);
    chmodSync(join(bin, "node"), 0o755);
  }
  return bin;
}

it("names the link on PATH that is this node (it follows upgrades), skipping folders without one", () => {
  const empty = join(dir, "empty");
  mkdirSync(empty);
  const linked = binWith("homebrew-bin", "link");
  expect(stableNodePath({ PATH: ["relative/bin", empty, linked].join(delimiter) })).toBe(join(linked, "node"));
});

it("keeps this process's own path when no node on PATH is this binary", () => {
  const shim = binWith("volta-bin", "shim");
  expect(stableNodePath({ PATH: shim })).toBe(process.execPath);
  expect(stableNodePath({})).toBe(process.execPath);
  // A link further down PATH is still this binary, and named over the path that moves.
  const linked = binWith("bin", "link");
  expect(stableNodePath({ PATH: [shim, linked].join(delimiter) })).toBe(join(linked, "node"));
});

it("tells a node in a folder named for its version (nvm, Homebrew's Cellar) from one that stays", () => {
  expect(versionedFolder("/home/me/.nvm/versions/node/v22.14.0/bin/node")).toBe("v22.14.0");
  expect(versionedFolder("/opt/homebrew/Cellar/node/24.1.0/bin/node")).toBe("24.1.0");
  expect(versionedFolder("/usr/bin/node")).toBeUndefined();
  expect(versionedFolder("/opt/homebrew/bin/node")).toBeUndefined();
  expect(versionedFolder("/opt/node-24/bin/node")).toBeUndefined();
});
