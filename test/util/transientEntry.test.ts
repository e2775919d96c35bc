import { describe, expect, it } from "vitest";
import { cairnCommandWord, transientEntry } from "../../src/util/cairnInvocation.js";

describe("an install run from npx's cache", () => {
  it("is told apart from a lasting install, so cairn install can warn before pointing hooks at it", () => {
    expect(transientEntry("/home/u/.npm/_npx/3f2a9c/node_modules/cairn-memory/dist/cli/main.js")).toMatch(
      /runs from npx's cache \(.*_npx.*\), which npm clears/,
    );
    expect(
      transientEntry(
        "C:\\Users\\u\\AppData\\Local\\npm-cache\\_npx\\1a\\node_modules\\cairn-memory\\dist\\cli\\main.js",
      ),
    ).toBeDefined();
    expect(transientEntry("/usr/local/lib/node_modules/cairn-memory/dist/cli/main.js")).toBeUndefined();
    expect(transientEntry("/home/u/src/my_npx_tools/cairn/dist/cli/main.js")).toBeUndefined();
  });

  it("is how hints spell the command: npx cairn-memory there, cairn after a lasting install", () => {
    expect(cairnCommandWord("/home/u/.npm/_npx/3f2a9c/node_modules/cairn-memory/dist/cli/main.cjs")).toBe(
      "npx cairn-memory",
    );
    expect(cairnCommandWord("/usr/local/lib/node_modules/cairn-memory/dist/cli/main.cjs")).toBe("cairn");
  });
});
