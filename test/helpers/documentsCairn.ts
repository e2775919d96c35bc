import { afterEach, beforeEach } from "vitest";
import { Cairn } from "../../src/cairn.js";
import { tempHome } from "../server/tempHome.js";

/** Each test's Cairn on a throwaway home, cutting small chunks (300 characters), on a clock it moves. */
export interface DocumentsCairn {
  readonly cairn: Cairn;
  /** Moves the clock on; returns the new time. */
  advance(ms: number): number;
}

/** Opens a fresh DocumentsCairn before each test of the suite that calls it and removes it after. */
export function useDocumentsCairn(start = Date.UTC(2026, 0, 1)): DocumentsCairn {
  let current: { cairn: Cairn; cleanup(): void } | undefined;
  let now = start;
  beforeEach(() => {
    const temp = tempHome();
    now = start;
    const cairn = new Cairn({
      home: temp.home,
      env: temp.env,
      clock: () => now,
      config: { "workers.documents.chunkSize": 300, "workers.documents.chunkOverlap": 40 },
    });
    current = { cairn, cleanup: temp.cleanup };
  });
  afterEach(() => {
    current?.cairn.close();
    current?.cleanup();
    current = undefined;
  });
  return {
    get cairn() {
      if (!current) throw new Error("useDocumentsCairn: no test is running");
      return current.cairn;
    },
    advance: (ms) => {
      now += ms;
      return now;
    },
  };
}
