import { afterEach, expect, it } from "vitest";
import { MCP_TOOL_NAMES } from "../../src/server/mcpToolNames.js";
import { type EveryDoor, openEveryDoor, runCliCaptured } from "../helpers/everyDoor.js";

let door: EveryDoor | undefined;
afterEach(async () => door?.close());

it("cairn mcp --help lists every tool the server registers", async () => {
  door = await openEveryDoor("cairn-tool-names");
  const registered = (await door.client.listTools()).tools.map((tool) => tool.name);
  expect([...MCP_TOOL_NAMES].sort()).toEqual(registered.sort());
  const help = await runCliCaptured(door.temp.home, ["mcp", "--help"]);
  // Help wraps its lines to the terminal.
  expect(help.stdout.replace(/\s+/g, " ")).toContain(`its tools: ${MCP_TOOL_NAMES.join(", ")}`);
});
