import { closeSync, openSync, readSync } from "node:fs";
import { asRecord } from "../jsonl.js";
import { readTitleSlot } from "./header.js";

/** omp writes the slot as one fixed-width line (256 bytes); a little more is read in case that changes. */
const SLOT_READ_BYTES = 1024;

/**
 * Re-reads omp's title slot on line 1. omp rewrites it in place when a session gets (or changes) its title,
 * which an append-only resume would never see, so a resumed read checks it separately. Returns undefined
 * when the slot cannot be read or is not a title record, and "" for an untitled slot.
 */
export function currentTitleSlot(file: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, "r");
    const buffer = Buffer.alloc(SLOT_READ_BYTES);
    const read = readSync(fd, buffer, 0, SLOT_READ_BYTES, 0);
    const newline = buffer.subarray(0, read).indexOf(0x0a);
    if (newline === -1) return undefined;
    const value = asRecord(JSON.parse(buffer.toString("utf8", 0, newline)));
    return value?.type === "title" ? (readTitleSlot(value) ?? "") : undefined;
  } catch {
    // A slot mid-rewrite or unreadable: keep the title already known.
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
