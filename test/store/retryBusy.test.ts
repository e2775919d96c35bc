import { describe, expect, it } from "vitest";
import { retryBusy } from "../../src/store/retryBusy.js";

const busy = () => Object.assign(new Error("database is locked"), { code: "SQLITE_BUSY" });

describe("retryBusy", () => {
  it("runs a step SQLite refused without waiting again until it goes through", () => {
    let calls = 0;
    const slept: number[] = [];
    const result = retryBusy(
      () => {
        calls += 1;
        if (calls < 4) throw busy();
        return "wal";
      },
      { sleep: (ms) => slept.push(ms) },
    );
    expect(result).toBe("wal");
    expect(calls).toBe(4);
    expect(slept).toEqual([5, 10, 20]);
  });

  it("gives up with SQLite's error once the time is spent", () => {
    let clock = 0;
    const step = () => {
      throw busy();
    };
    expect(() => retryBusy(step, { ms: 50, now: () => clock, sleep: (ms) => (clock += ms) })).toThrow(
      "database is locked",
    );
    expect(clock).toBeGreaterThanOrEqual(50);
  });

  it("does not retry any other error", () => {
    let calls = 0;
    expect(() =>
      retryBusy(() => {
        calls += 1;
        throw Object.assign(new Error("file is not a database"), { code: "SQLITE_NOTADB" });
      }),
    ).toThrow("file is not a database");
    expect(calls).toBe(1);
  });
});
