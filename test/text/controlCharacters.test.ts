import { describe, expect, it } from "vitest";
import { withoutControls } from "../../src/text/controlCharacters.js";

describe("withoutControls", () => {
  it("replaces escapes, lone carriage returns, C1 controls and bidi overrides, and keeps tabs and line ends", () => {
    expect(withoutControls("a\u001b[31mb\rc\u009bd\u202ee")).toBe("a\uFFFD[31mb\uFFFDc\uFFFDd\uFFFDe");
    expect(withoutControls("one\ttwo\nthree")).toBe("one\ttwo\nthree");
  });

  it("reads a Windows line end as a line end", () => {
    expect(withoutControls("first\r\nsecond\r\n")).toBe("first\nsecond\n");
  });
});
