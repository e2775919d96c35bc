import { afterEach, expect, it } from "vitest";
import { memoryMarkdown } from "../../src/memory/memoryMarkdown.js";
import { type EveryDoor, openEveryDoor } from "../helpers/everyDoor.js";
import { callTool } from "../helpers/inProcessMcp.js";

let door: EveryDoor | undefined;
afterEach(async () => door?.close());

it("one memory is '1 memory' in MCP recall text and in the Markdown export; two are 'memories'", async () => {
  door = await openEveryDoor("cairn-one-memory");
  await door.cairn.remember({ content: "The nightly build runs on the arm64 runner.", scope: "global" });
  const one = await callTool(door.client, "recall", { query: "nightly build runner", scope: "global" });
  expect(one.text).toMatch(/^1 memory for "nightly build runner" \(most relevant first\):/);
  expect(memoryMarkdown(door.cairn.exportMemories({ scope: "global" }).memories).get("global.md")).toContain(
    "\n1 memory.\n",
  );

  await door.cairn.remember({ content: "The nightly build posts its report to the release channel.", scope: "global" });
  const two = await callTool(door.client, "recall", { query: "nightly build", scope: "global" });
  expect(two.text).toMatch(/^2 memories for "nightly build"/);
  expect(memoryMarkdown(door.cairn.exportMemories({ scope: "global" }).memories).get("global.md")).toContain(
    "\n2 memories.\n",
  );
});
