import { createHash } from "node:crypto";
import { homedir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { residentHome } from "../../src/cli/resident/askResident.js";
import { MAX_SOCKET_PATH_BYTES, residentSocket } from "../../src/cli/resident/residentSocket.js";

const env = { CAIRN_HOME: "/data/memory" };

describe("residentHome: which command lines the CLI sends to a resident process", () => {
  it("sends recall and inject, for the root the command line names", () => {
    expect(residentHome({ args: ["recall", "port"], env })).toBe("/data/memory");
    expect(residentHome({ args: ["inject", "--cwd", "/x"], env })).toBe("/data/memory");
    expect(residentHome({ args: ["--home", "/other", "recall", "port"], env })).toBe("/other");
    expect(residentHome({ args: ["--home=/other/", "recall", "port"], env })).toBe("/other");
    expect(residentHome({ args: ["recall", "port", "--home", "/other"], env })).toBe("/other");
    expect(residentHome({ args: ["recall", "port"], env: {} })).toBe(join(homedir(), ".cairn"));
  });

  it("keeps every other command line in the CLI", () => {
    for (const args of [
      ["remember", "x"],
      ["status"],
      ["recall", "x", "--help"],
      ["recall", "-h"],
      ["--version"],
      ["recall", "--", "--k"],
      ["--json", "recall", "x"],
      ["--home", "relative/dir", "recall", "x"],
      ["--home", "/a", "recall", "x", "--home", "/b"],
      ["--home"],
      [],
    ])
      expect(residentHome({ args, env }), args.join(" ")).toBeUndefined();
    expect(residentHome({ args: ["recall", "x"], env: { ...env, CAIRN_RESIDENT: "off" } })).toBeUndefined();
  });
});

describe("residentSocket", () => {
  const system = {
    platform: "linux" as const,
    tmpdir: () => "/tmp",
    uid: 1000,
    sha256: (text: string) => createHash("sha256").update(text).digest("hex"),
  };

  it("is in the memory root when the path fits a unix socket", () => {
    expect(residentSocket("/home/me/.cairn", system)).toEqual({ path: "/home/me/.cairn/cairn.sock" });
  });

  it("is in a private folder of the temp dir, per user and root, when the root's path is too long", () => {
    const long = `/home/me/${"d".repeat(120)}`;
    const place = residentSocket(long, system);
    expect(place.privateDir).toMatch(/^\/tmp\/cairn-1000-[0-9a-f]{16}$/);
    expect(place.path).toBe(`${place.privateDir}/cairn.sock`);
    expect(Buffer.byteLength(place.path)).toBeLessThanOrEqual(MAX_SOCKET_PATH_BYTES);
    expect(residentSocket(`${long}x`, system).path).not.toBe(place.path);
  });

  it("is a named pipe on Windows", () => {
    const pipe = residentSocket("C:\\Users\\me\\.cairn", { ...system, platform: "win32" }).path;
    expect(pipe).toMatch(/^\\\\\.\\pipe\\cairn-[0-9a-f]{16}$/);
    expect(residentSocket("c:\\users\\ME\\.cairn", { ...system, platform: "win32" }).path).toBe(pipe);
  });
});
