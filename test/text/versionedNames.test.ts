import { describe, expect, it } from "vitest";
import { sameVersion, versionedNames, versionsChanged } from "../../src/text/versionedNames.js";

const read = (text: string) => Object.fromEntries([...versionedNames(text)].map(([name, v]) => [name, [...v]]));

describe("versioned names", () => {
  it("reads a name written as one with the version after it", () => {
    expect(read("field-app is on Expo SDK 50 with React Native 0.73.")).toEqual({
      "expo sdk": ["50"],
      "react native": ["0.73"],
    });
    expect(read("We use Redis version 7, iOS 15.1+ and React Router v6")).toEqual({
      redis: ["7"],
      ios: ["15.1+"],
      "react router": ["6"],
    });
    expect(read("Both EKS clusters run Kubernetes 1.27.")).toEqual({ kubernetes: ["1.27"] });
  });

  it("leaves out dates, numbered things, quantities, lower-case words and a sentence's first word", () => {
    expect(read("The release moved to March 10; Service 3 listens on port 4003")).toEqual({});
    expect(read("Wait 30 seconds. Use 4 workers. Node 18 was used; it runs with Postgres 20 connections")).toEqual({});
    expect(read("retry 3 times, then run batch 20")).toEqual({});
    expect(read("We cut Release 2.4.0 and tagged Version 3.1 last week")).toEqual({});
    // With a dot the number is plainly a version, even first.
    expect(read("Python 3.12 is required")).toEqual({ python: ["3.12"] });
  });

  it("reads a known tool or language written in lower case, as users and agents often do", () => {
    expect(read("the api runs on node 20; ci uses python 3.12 and postgres 16")).toEqual({
      node: ["20"],
      python: ["3.12"],
      postgres: ["16"],
    });
    // Not a plain word that names a tool too, nor a count.
    expect(read("limit requests 100 per minute; node 3 replicas")).toEqual({});
  });

  it("moves a minimum supported version only against another minimum", () => {
    const changed = (newer: string, older: string) => versionsChanged(versionedNames(newer), versionedNames(older));
    expect(changed("field-app supports iOS 15.1+", "Builds need the iOS 18 SDK")).toEqual([]);
    expect(changed("The CLI needs Node 20+", "The CLI needs Node 18+")).toEqual([
      { name: "node", from: ["18+"], to: ["20+"] },
    ]);
    expect(changed("The CLI needs Node 18+", "The CLI needs Node 18")).toEqual([]);
  });

  it("treats a release of a version as that version", () => {
    expect(sameVersion("1.23", "1.23.0")).toBe(true);
    expect(sameVersion("18", "18.19")).toBe(true);
    expect(sameVersion("1.2", "1.23")).toBe(false);
    const changed = versionsChanged(versionedNames("go.mod says Go 1.23.0"), versionedNames("It builds with Go 1.23"));
    expect(changed).toEqual([]);
    expect(versionsChanged(versionedNames("The app runs Node 22"), versionedNames("The app runs Node 18.19"))).toEqual([
      { name: "node", from: ["18.19"], to: ["22"] },
    ]);
  });
});
