import { parseTime } from "../../util/clock.js";
import { asRecord, asString, type JsonLine } from "../jsonl.js";

/**
 * One rollout record in the shape both Codex formats share. Current files wrap every record in
 * `{timestamp, type, payload}`; legacy files (until ~Sept 2025) hold a bare meta object, then bare
 * ResponseItems without timestamps, so they are mapped onto the same types here, once.
 */
export interface RolloutLine {
  line: number;
  type: string;
  payload: Record<string, unknown>;
  ts?: number;
}

/** Legacy rollouts start with a bare meta object: it has `id` and no `payload`. */
export function isLegacyRollout(first: unknown): boolean {
  const record = asRecord(first);
  return record !== undefined && "id" in record && !("payload" in record);
}

export function toRolloutLine(record: JsonLine, legacy: boolean): RolloutLine | undefined {
  const value = asRecord(record.value);
  if (value === undefined) return undefined;
  const ts = parseTime(value.timestamp);
  if (legacy) return legacyLine(record.line, value, ts);
  const type = asString(value.type);
  if (type === undefined) return undefined;
  return { line: record.line, type, payload: asRecord(value.payload) ?? {}, ts };
}

function legacyLine(line: number, value: Record<string, unknown>, ts: number | undefined): RolloutLine {
  // Expects: the meta object (id, no type), `{"record_type":"state"}` markers, and bare ResponseItems.
  if (typeof value.record_type === "string") return { line, type: `legacy_${value.record_type}`, payload: value, ts };
  if (typeof value.type === "string") return { line, type: "response_item", payload: value, ts };
  if (typeof value.id === "string") return { line, type: "session_meta", payload: value, ts };
  return { line, type: "legacy_unknown", payload: value, ts };
}
