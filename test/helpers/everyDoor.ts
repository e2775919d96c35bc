import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { vi } from "vitest";
import { Cairn } from "../../src/cairn.js";
import { main } from "../../src/cli/program.js";
import { createHttpApp } from "../../src/server/createHttpApp.js";
import { type TempHome, tempHome } from "../server/tempHome.js";
import { inProcessMcpClient } from "./inProcessMcp.js";

/** One throwaway home opened through the library, the HTTP app and an MCP client of that app. */
export interface EveryDoor {
  temp: TempHome;
  cairn: Cairn;
  app: ReturnType<typeof createHttpApp>;
  client: Client;
  close(): Promise<void>;
}

/** Opens every programmatic door on one fresh home (the CLI runs with `--home temp.home`). */
export async function openEveryDoor(clientName: string): Promise<EveryDoor> {
  const temp = tempHome();
  const cairn = new Cairn({ home: temp.home, env: temp.env });
  const app = createHttpApp({ cairn });
  const client = await inProcessMcpClient(app, clientName);
  return {
    temp,
    cairn,
    app,
    client,
    close: async () => {
      await client.close();
      cairn.close();
      temp.cleanup();
    },
  };
}

/** The CLI in this process on `home`: its exit code and what it wrote to stderr (stdout is dropped). */
export async function runCliOn(home: string, args: string[]): Promise<{ code: number; stderr: string }> {
  const { code, stderr } = await runCliCaptured(home, args);
  return { code, stderr };
}

/** The CLI in this process on `home`: its exit code and what it wrote to stdout and stderr. */
export async function runCliCaptured(
  home: string,
  args: string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const err = vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
    stderr += String(chunk);
    return true;
  });
  const out = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
    stdout += String(chunk);
    return true;
  });
  try {
    return { code: await main(["node", "cairn", "--home", home, ...args]), stdout, stderr };
  } finally {
    err.mockRestore();
    out.mockRestore();
  }
}
