import { expect } from "vitest";

/** The one line a failing command prints on stderr (asserting there is exactly one). */
export function oneErrorLine(stderr: string): string {
  const lines = stderr.trim().split("\n");
  expect(lines, stderr).toHaveLength(1);
  return lines[0]!;
}
