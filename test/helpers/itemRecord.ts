import type { ItemRecord } from "../../src/collection/types.js";

/** A collected session item as the store returns it: session "s", sequence and key from the id. */
export function itemRecord(id: number, role: ItemRecord["role"], text: string): ItemRecord {
  return {
    id,
    sessionId: "s",
    seq: id,
    key: `L${id}`,
    role,
    text,
    tool: role.startsWith("tool") ? "exec_command" : null,
    callId: null,
    isError: false,
    ts: null,
    originFile: null,
    originLine: null,
  };
}
