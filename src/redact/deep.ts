import { redactText } from "./redact.js";

/**
 * A copy of a JSON-like value with every string redacted: string values, array items and object
 * keys (a secret can be a key, as in a map of tokens). The input is not changed. Values that are
 * not strings, arrays or plain objects (numbers, Dates, class instances) are kept as they are.
 * Two keys that redact to the same marker collapse into one, the later winning.
 */
export function redactDeep<T>(value: T): T {
  return mapStringsDeep(value, redactText);
}

/** A copy of a JSON-like value with `map` applied to every string value, array item and object key. */
export function mapStringsDeep<T>(value: T, map: (text: string) => string): T {
  return copy(value, new WeakMap(), map) as T;
}

function copy(value: unknown, seen: WeakMap<object, unknown>, map: (text: string) => string): unknown {
  if (typeof value === "string") return map(value);
  if (typeof value !== "object" || value === null) return value;
  const done = seen.get(value);
  if (done !== undefined) return done;
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    seen.set(value, out);
    for (const item of value) out.push(copy(item, seen, map));
    return out;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  // A literal given its keys by assignment: every file an import reads has its resume state guarded,
  // and Object.create with defineProperty for every key made that about a fifth slower.
  const out: Record<string, unknown> = proto === null ? Object.create(null) : {};
  seen.set(value, out);
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const mapped = map(key);
    const item = copy(record[key], seen, map);
    // A "__proto__" key from JSON.parse must stay a plain key: assigning it would set the prototype.
    if (mapped === "__proto__")
      Object.defineProperty(out, mapped, { value: item, enumerable: true, writable: true, configurable: true });
    else out[mapped] = item;
  }
  return out;
}
