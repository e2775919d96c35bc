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

function isPlainObject(value: object): value is Record<string, unknown> {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
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
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = Object.create(Object.getPrototypeOf(value));
  seen.set(value, out);
  for (const [key, item] of Object.entries(value)) {
    const mapped = map(key);
    const copied = copy(item, seen, map);
    // A "__proto__" key from JSON.parse must stay a plain key, which assignment would not make it.
    if (mapped === "__proto__")
      Object.defineProperty(out, mapped, { value: copied, enumerable: true, writable: true, configurable: true });
    else out[mapped] = copied;
  }
  return out;
}
