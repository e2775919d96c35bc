import { describe, expect, it } from "vitest";
import { stopReason } from "../../src/cli/resident/residentLifetime.js";
import { onDemandHome } from "../../src/cli/resident/startOnDemand.js";

// When a resident process cairn started by itself ends (stopReason), and for which command lines one
// is started at all (onDemandHome); the processes themselves: residentOnDemand.test.ts.

describe("stopReason", () => {
  const started = { socket: "1:10", program: ["1:20:900:5", "1:21:2000000:5"] };
  const idle = 60_000;
  const quiet = { inFlight: 0, lastAt: 1_000_000 };

  it("keeps a process that answered within the idle time, or is answering now", () => {
    expect(stopReason(1_000_000 + idle - 1, quiet, idle, started, started)).toBeUndefined();
    expect(
      stopReason(1_000_000 + 10 * idle, { inFlight: 1, lastAt: 1_000_000 }, idle, started, started),
    ).toBeUndefined();
  });

  it("ends one idle for the whole idle time", () => {
    expect(stopReason(1_000_000 + idle, quiet, idle, started, started)).toEqual({
      reason: "no command line for 1 min (resident.idleMinutes)",
      idle: true,
    });
  });

  it("ends one whose idle time was set to 0 while it ran, once it answers nothing", () => {
    expect(stopReason(1_000_001, quiet, 0, started, started)).toEqual({
      reason: "resident.idleMinutes is 0 now",
      idle: true,
    });
    expect(stopReason(1_000_001, { inFlight: 1, lastAt: 1_000_000 }, 0, started, started)).toBeUndefined();
  });

  it("ends one whose socket is gone or another's, even while it answers", () => {
    const busy = { inFlight: 1, lastAt: 1_000_000 };
    expect(stopReason(1_000_001, busy, idle, started, { ...started, socket: undefined })?.reason).toMatch(
      /socket was removed/,
    );
    expect(stopReason(1_000_001, busy, idle, started, { ...started, socket: "1:11" })?.reason).toMatch(
      /socket was removed/,
    );
  });

  it("ends one whose program files changed or went: an upgrade or a rebuild", () => {
    expect(
      stopReason(1_000_001, quiet, idle, started, { ...started, program: ["1:20:900:5", "1:99:2000000:6"] }),
    ).toEqual({
      reason: "cairn was upgraded or rebuilt",
      idle: false,
    });
    expect(stopReason(1_000_001, quiet, idle, started, { ...started, program: [undefined, "1:21:2000000:5"] })).toEqual(
      {
        reason: "cairn was upgraded or rebuilt",
        idle: false,
      },
    );
  });
});

describe("onDemandHome", () => {
  const env = { CAIRN_HOME: "/somewhere/.cairn" };
  const bundle = { env, platform: "linux" as const, build: "cairn-build-0123456789abcdef" };

  it("names the memory root of a recall or inject of the built CLI", () => {
    expect(onDemandHome({ ...bundle, args: ["recall", "dev server"] })).toEqual({ home: "/somewhere/.cairn" });
    expect(onDemandHome({ ...bundle, args: ["inject", "--home", "/other"] })).toEqual({ home: "/other" });
  });

  it("starts none for other commands, the sources, Windows, cairn's own model runs or CAIRN_RESIDENT=off", () => {
    expect(onDemandHome({ ...bundle, args: ["remember", "x"] })).toHaveProperty("skipped");
    expect(onDemandHome({ ...bundle, args: ["recall", "x", "--home", "relative"] })).toHaveProperty("skipped");
    expect(onDemandHome({ ...bundle, build: "source", args: ["recall", "x"] })).toHaveProperty("skipped");
    expect(onDemandHome({ ...bundle, platform: "win32", args: ["recall", "x"] })).toHaveProperty("skipped");
    expect(onDemandHome({ ...bundle, env: { ...env, CAIRN_INTERNAL: "1" }, args: ["recall", "x"] })).toHaveProperty(
      "skipped",
    );
    expect(onDemandHome({ ...bundle, env: { ...env, CAIRN_RESIDENT: "off" }, args: ["recall", "x"] })).toHaveProperty(
      "skipped",
    );
  });
});
