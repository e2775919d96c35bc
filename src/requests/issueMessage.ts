import type { z } from "zod";

type RawIssue = z.core.$ZodRawIssue;

/** The field an issue is about, as a dotted path ("items.2.content"); "request" for the request itself. */
export function fieldOf(issue: { path?: PropertyKey[] | undefined }): string {
  return issue.path && issue.path.length > 0 ? issue.path.map(String).join(".") : "request";
}

function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/**
 * zod's error map for every request schema: one sentence that starts with the field and says what is
 * allowed, the same wherever it surfaces (a CLI line, an HTTP 400 body, an MCP tool error). Built from
 * the issue's code and input, never from zod's English wording. A missing field is an `invalid_type`
 * issue whose input is undefined.
 */
export function issueMessage(issue: RawIssue): string {
  const field = fieldOf(issue);
  switch (issue.code) {
    case "invalid_type":
      if (issue.input === undefined) return `${field} is required`;
      return `${field} must be ${issue.expected === "int" ? "a whole number" : `${article(issue.expected)}`}; got ${issue.input === null ? "null" : typeName(issue.input)}`;
    case "too_small":
      if (issue.origin === "string" && issue.minimum === 1) return `${field} must not be empty`;
      if (issue.origin === "array") return `${field} must have at least ${issue.minimum} item(s)`;
      return `${field} must be at least ${issue.minimum}; got ${String(issue.input)}`;
    case "too_big":
      return `${field} must be at most ${issue.maximum}${issue.origin === "string" ? " characters" : ""}`;
    case "invalid_value":
      return `${field} must be one of ${issue.values.map(String).join(", ")}`;
    case "unrecognized_keys": {
      const prefix = issue.path && issue.path.length > 0 ? `${fieldOf(issue)}.` : "";
      return `unknown field ${issue.keys.map((key) => prefix + key).join(", ")}`;
    }
    default:
      return `${field} is not valid`;
  }
}

function article(expected: string): string {
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}

/**
 * The error of a limit check: names the limit and what was given. `limit` says where the limit comes
 * from, e.g. "recall.maxK" (a config key) or "the limit for one memory".
 */
export function overLimit(limit: string): (issue: RawIssue) => string | undefined {
  return (issue) => {
    if (issue.code !== "too_big") return undefined;
    const field = fieldOf(issue);
    const input = issue.input;
    if (typeof input === "string") {
      return `${field} must be at most ${issue.maximum} characters (${limit}); got ${input.length}`;
    }
    if (Array.isArray(input))
      return `${field} must have at most ${issue.maximum} items (${limit}); got ${input.length}`;
    return `${field} must be at most ${issue.maximum} (${limit}); got ${String(input)}`;
  };
}
