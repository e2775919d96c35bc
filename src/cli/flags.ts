import { CairnError } from "../util/errors.js";

// Parsers for commander's argParser. A bad value ends the command before it does anything, with one
// line that names the flag, the value given and what is allowed (main() prints CairnError messages).

function badFlag(flag: string, value: string, allowed: string): CairnError {
  return new CairnError("bad_flag", `${flag} must be ${allowed} (got ${JSON.stringify(value)})`);
}

/** A whole number in [min, max]; rejects "abc", "1.5", "-3", "" and "10abc" (parseInt would take 10). */
export function wholeNumber(flag: string, min: number, max = Number.MAX_SAFE_INTEGER): (value: string) => number {
  const allowed =
    max === Number.MAX_SAFE_INTEGER ? `a whole number of at least ${min}` : `a whole number from ${min} to ${max}`;
  return (value) => {
    const number = /^\d+$/.test(value.trim()) ? Number(value) : Number.NaN;
    if (!(number >= min && number <= max)) throw badFlag(flag, value, allowed);
    return number;
  };
}

/** A number above 0 and at most `max`, fractions allowed ("0.5"); rejects "abc", "0", "-1" and "1e9". */
export function aboveZero(flag: string, max: number): (value: string) => number {
  return (value) => {
    const number = /^\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : Number.NaN;
    if (!(number > 0 && number <= max)) throw badFlag(flag, value, `a number above 0 and at most ${max}`);
    return number;
  };
}

/** One of a fixed list of values. */
export function oneOf<T extends string>(flag: string, values: readonly T[]): (value: string) => T {
  return (value) => {
    if (!values.includes(value as T)) throw badFlag(flag, value, `one of ${values.join(", ")}`);
    return value as T;
  };
}

/** Any text but an empty or blank one (a blank --scope or --cwd is a shell mistake, not a choice). */
export function nonEmpty(flag: string, what: string): (value: string) => string {
  return (value) => {
    if (value.trim().length === 0) throw badFlag(flag, value, what);
    return value;
  };
}
