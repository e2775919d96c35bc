import { nameEndingAt } from "../gates.js";

/**
 * What surrounds a value found by a `name <sep> value` rule, for the gates to judge it. Expects the
 * keyword as capture group 1 and the value in one of the groups from `firstValueGroup` on, in the
 * order of VALUE in fragments.ts (double, single, back-quoted, bare).
 */
export interface AssignmentContext {
  /** The whole identifier ending with the keyword: `DB_PASSWORD`, `stripeApiKey`. */
  name: string;
  /** Text between the keyword and the value, quotes included: `": "`, ` = `, `=`. */
  separator: string;
  quoted: boolean;
  /** The rest of the line after the value (and its closing quote), at most 200 characters. */
  rest: string;
}

export function assignmentContext(match: RegExpExecArray, firstValueGroup: number): AssignmentContext {
  const keyword = match[1] ?? "";
  const keywordEnd = match.index + keyword.length;
  const bare = match[firstValueGroup + 3];
  const value = bare ?? match.slice(firstValueGroup, firstValueGroup + 3).find((v) => v !== undefined) ?? "";
  const valueStart = match.index + match[0].lastIndexOf(value);
  const matchEnd = match.index + match[0].length;
  // A window, not the whole remaining input: a huge line must not make each match cost O(n).
  const after = match.input.slice(matchEnd, matchEnd + 200);
  const lineEnd = after.indexOf("\n");
  return {
    name: nameEndingAt(match.input, keywordEnd),
    separator: match.input.slice(keywordEnd, valueStart),
    quoted: bare === undefined,
    rest: lineEnd === -1 ? after : after.slice(0, lineEnd),
  };
}

/** `DB_PASSWORD=value`: a shell or .env assignment, where a bare word is the value itself. */
export function isEnvStyle(context: AssignmentContext): boolean {
  return /^[A-Z][A-Z0-9_]*$/.test(context.name) && /^\\?["']?=\\?["']?$/.test(context.separator);
}

/**
 * `password=value` with no blanks: .env, query strings, connection strings, `-Dkey=value`; but
 * not a keyword argument (`login(password=pw)`), whose value is a variable.
 */
export function isTightEquals(context: AssignmentContext): boolean {
  return /^\\?["']?=\\?["']?$/.test(context.separator) && !/^[ \t]*[),]/.test(context.rest);
}

/** `password: value` alone on its line (YAML, a config dump), not a type annotation in code. */
export function isLoneColonValue(context: AssignmentContext): boolean {
  // The line may also end in JSON-escaped form: `\n` or the closing quote of a string.
  return (
    /^\\?["']?[ \t]*:[ \t]*$/.test(context.separator) &&
    /^(?:\s*(?:#.*)?$|\\[nr]|\\?"[ \t]*(?:[,}\]]|$))/.test(context.rest)
  );
}
