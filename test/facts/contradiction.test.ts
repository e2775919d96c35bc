import { describe, expect, it } from "vitest";
import { detectSyntacticContradiction, hasNegation, sharedTokens } from "../../src/pipeline/facts/contradiction.js";

describe("detectSyntacticContradiction", () => {
  it.each([
    ["Use npm for package installs", "Do not use npm for package installs", "negates"],
    ["The build never runs the linter", "The build runs the linter first", "negates"],
    ["We no longer deploy staging from main", "We deploy staging from main", "negates"],
    ["Telemetry is enabled on the dev server", "Telemetry is disabled on the dev server", "enable / disable"],
    ["Turn the build cache off in CI", "Turn the build cache on in CI", "off / on"],
    ["The job writes its reports async", "The job writes its reports sync", "async / sync"],
  ])("flags %j against %j", (fact, stored, why) => {
    const found = detectSyntacticContradiction(fact, stored);
    expect(found?.detector).toBe("syntactic");
    expect(found?.reason).toContain(why);
  });

  it.each([
    ["same polarity, no opposite terms", "The API listens on port 8080", "The API listens on port 3000"],
    ["both negated", "Do not commit the env file", "Never commit the env file to git"],
    ["one shared word only", "Do not use npm", "npm ships with node"],
    ["nothing shared", "Telemetry is disabled", "Logging is enabled"],
    ["opposite terms on both sides", "Add or remove packages with pnpm", "Add and remove packages with pnpm"],
    ["two numbered things", "Worker 2 does not run the nightly export", "Worker 4 runs the nightly export"],
    ["two numbered labels", "note 15: the export is not enabled", "note 18: the export is enabled"],
    ["two environments", "In staging the export job is disabled", "In production the export job is enabled"],
  ])("does not flag %s", (_case, fact, stored) => {
    expect(detectSyntacticContradiction(fact, stored)).toBeNull();
  });

  it("needs two shared content words, stop words not counted", () => {
    expect(sharedTokens("It is not on the list", "It is on the list")).toEqual(["list"]);
    expect(detectSyntacticContradiction("It is not on the list", "It is on the list")).toBeNull();
    expect(hasNegation("It isn't on the list")).toBe(true);
    expect(hasNegation("Stop using the legacy client")).toBe(true);
    expect(hasNegation("Notes live in the docs folder")).toBe(false);
  });
});
