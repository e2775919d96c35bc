import { describe, expect, it } from "vitest";
import { statusForError } from "../../src/server/statusForError.js";
import { CairnError, cairnErrorStatus } from "../../src/util/errors.js";

describe("CairnError codes", () => {
  it("carry their HTTP status: the caller's mistakes are 4xx, everything else 500", () => {
    expect(new CairnError("bad_input", "x").status).toBe(400);
    expect(new CairnError("memory_not_found", "x").status).toBe(404);
    expect(new CairnError("store_damaged", "x").status).toBe(500);
    expect(statusForError(new CairnError("bad_memory_url", "x"))).toBe(400);
    expect(statusForError(new Error("bad_input"))).toBe(500);
    for (const [code, status] of Object.entries(cairnErrorStatus)) {
      expect(new CairnError(code as keyof typeof cairnErrorStatus, "x").status).toBe(status);
    }
  });

  it("rejects an unknown code at compile time", () => {
    // @ts-expect-error "bad_imput" is not a CairnErrorCode (tsc --noEmit fails if this line compiles).
    const typo = new CairnError("bad_imput", "x");
    expect(typo.status).toBeUndefined();
  });

  it("is recognised by its marker across copies of the module, not by instanceof", () => {
    const foreign = Object.assign(new Error("x"), { [Symbol.for("cairn.error")]: true, status: 404 });
    expect(CairnError.isInstance(new CairnError("bad_input", "x"))).toBe(true);
    expect(CairnError.isInstance(foreign)).toBe(true);
    expect(CairnError.isInstance(new Error("x"))).toBe(false);
    expect(statusForError(foreign)).toBe(404);
  });
});
