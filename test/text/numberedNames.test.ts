import { describe, expect, it } from "vitest";
import { analyzeQuery } from "../../src/recall/queryAnalyzer.js";
import { subjectWords } from "../../src/recall/sameSubject.js";
import { isNumberedName, namedNumbers, namesOtherNumberedThing } from "../../src/text/numberedNames.js";

describe("numbered names", () => {
  it("reads a whole number after a noun that numbers things as which one", () => {
    expect(isNumberedName("Service", "3")).toBe(true);
    expect(isNumberedName("issue", "42")).toBe(true);
    expect(isNumberedName("step", "12")).toBe(true);
  });

  it("leaves versions, settings, decimals and numbers after other words as values", () => {
    expect(isNumberedName("Node", "18")).toBe(false);
    expect(isNumberedName("version", "3")).toBe(false);
    expect(isNumberedName("port", "4003")).toBe(false);
    expect(isNumberedName("service", "3.1")).toBe(false);
    expect(isNumberedName("service", "3ms")).toBe(false);
    expect(isNumberedName(undefined, "3")).toBe(false);
  });

  it("tells two numbered things of one kind apart", () => {
    expect(namedNumbers("Service 3 calls worker #12")).toEqual(["3", "12"]);
    expect(namesOtherNumberedThing("Service 3 no longer uses Redis", "Service 5 uses Redis")).toBe(true);
    expect(namesOtherNumberedThing("Service 3 no longer uses Redis", "service 3 uses Redis")).toBe(false);
    // Another kind, or no number on one side, says nothing about whether they are one thing.
    expect(namesOtherNumberedThing("Service 3 no longer uses Redis", "Step 2 uses Redis")).toBe(false);
    expect(namesOtherNumberedThing("Service 3 no longer uses Redis", "The cache uses Redis")).toBe(false);
    expect(namesOtherNumberedThing("Services 3 and service 5 use Redis", "Service 5 uses Redis")).toBe(false);
  });

  it("keeps the number among a memory's subject words and a question's search terms", () => {
    expect(subjectWords("Service 3 listens on port 4003")).toContain("3");
    expect(subjectWords("The API listens on port 4003")).not.toContain("4003");
    expect(analyzeQuery("which port does service 3 listen on").terms).toContain("3");
    // A lone digit elsewhere still says nothing a search could use.
    expect(analyzeQuery("is python 3 installed").terms).not.toContain("3");
  });
});
