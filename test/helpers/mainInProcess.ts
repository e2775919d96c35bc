import { vi } from "vitest";
import { main } from "../../src/cli/program.js";

/**
 * Runs the CLI in this process with stdout silenced, and returns its exit code and what it wrote on
 * stderr. The spies are the caller's to restore (`vi.restoreAllMocks()` after each test).
 */
export async function mainInProcess(args: string[]): Promise<{ code: number; stderr: string }> {
  let stderr = "";
  vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
    stderr += String(chunk);
    return true;
  });
  vi.spyOn(process.stdout, "write").mockImplementation(() => true);
  const code = await main(["node", "cairn", ...args]);
  return { code, stderr };
}
