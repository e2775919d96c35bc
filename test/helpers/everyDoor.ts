import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { Cairn } from "../../src/cairn.js";
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
