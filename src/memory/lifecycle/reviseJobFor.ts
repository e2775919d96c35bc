import { REVISE_KIND } from "../../store/queue/jobKinds.js";

/** The job of a stored memory: revise it after the raw write. Enqueued inside the write that stored it. */
export function reviseJobFor(id: number): { kind: string; key: string; payload: { memoryId: number } } {
  return { kind: REVISE_KIND, key: String(id), payload: { memoryId: id } };
}
