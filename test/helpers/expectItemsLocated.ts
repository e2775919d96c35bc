import { readFileSync } from "node:fs";
import { expect } from "vitest";
import type { SessionItem } from "../../src/sources/types.js";

/** Every item points at its file and at a line whose `timestamp` is the item's time. */
export function expectItemsLocated(items: readonly SessionItem[], file: string): void {
  const lines = readFileSync(file, "utf8").split("\n");
  for (const item of items) {
    expect(item.origin.file).toBe(file);
    const record = JSON.parse(lines[item.origin.line - 1] ?? "null") as { timestamp: string };
    expect(item.ts).toBe(Date.parse(record.timestamp));
  }
}
