import { z } from "zod";
import { addressesAgent } from "../text/addressesAgent.js";
import { DAY_MS } from "../util/clock.js";
import { lazily } from "../util/lazily.js";
import { cwd, request, scope, text } from "./fields.js";
import { fieldOf, issueMessage, overLimit } from "./issueMessage.js";
import { requestLimits } from "./limits.js";
import { memoryTypes } from "./memoryTypes.js";

/** 1973-03-03 in epoch milliseconds; a smaller time is almost surely epoch seconds. */
export const EPOCH_MS_FLOOR = 100_000_000_000;

/**
 * A memory's text. Remembered memories are injected into every later session of their scope, so text
 * worded as instructions to the agent reading it (prompt injection, a new role for the agent, running
 * a fetched URL in a shell) is refused here, on every door that stores or edits a memory: a session
 * talked into one `remember` call would otherwise plant it in all later sessions.
 */
const memoryText = text(requestLimits.contentChars, "the limit for one memory").refine(
  (value) => !addressesAgent(value),
  {
    error: (issue) =>
      `${fieldOf(issue)} reads as instructions to an AI agent ("ignore previous instructions", "you are now ...", a URL piped into a shell), and memories are shown to later sessions: state it as a fact or preference about your work`,
  },
);

/** The fields of one memory a caller gives, on every door. */
export const rememberFields = {
  content: memoryText,
  scope: scope.optional(),
  ref: z
    .string({ error: issueMessage })
    .max(requestLimits.refChars, { error: overLimit("the limit for a ref") })
    .optional(),
  type: z.enum(memoryTypes, { error: issueMessage }).optional(),
  /** When it was said: epoch ms or an ISO date; the newer of two memories on one subject replaces the older. */
  occurredAt: z
    .union(
      [
        // Epoch seconds given for milliseconds read as January 1970: older than every memory, so the
        // memory could replace none and be replaced by any. Nothing a coding agent says predates 1973.
        z
          .number({ error: issueMessage })
          .int()
          .min(EPOCH_MS_FLOOR, {
            error: (issue) =>
              `${fieldOf(issue)} must be epoch milliseconds; ${String(issue.input)} is ${new Date(Number(issue.input)).toISOString().slice(0, 10)} (seconds given for milliseconds?)`,
          }),
        // A date that does not parse was stored as no date at all: the memory then counted as said when stored.
        z
          .string()
          .trim()
          .min(1)
          .max(64)
          .refine((value) => Number.isFinite(Date.parse(value)), { error: notADate }),
      ],
      { error: notADate },
    )
    .optional(),
  /**
   * Words a later question may use that the memory's text does not (aliases, abbreviations, the general
   * category): indexed in their own low-weight column, redacted like the text.
   */
  searchTerms: z
    .array(
      z
        .string({ error: issueMessage })
        .trim()
        .min(1)
        .max(requestLimits.searchTermChars, { error: overLimit("the limit for a search term") }),
      { error: issueMessage },
    )
    .max(requestLimits.searchTerms, { error: overLimit("the limit for search terms") })
    .optional(),
  /** The raw conversation the memory came from, stored once per session key (seed 004's lossless transcripts). */
  transcript: text(requestLimits.transcriptChars, "the limit for one transcript").optional(),
  /** The session a transcript belongs to. */
  sessionKey: z
    .string({ error: issueMessage })
    .trim()
    .min(1)
    .max(requestLimits.refChars, { error: overLimit("the limit for a session key") })
    .optional(),
};

/** A transcript is kept per session: without a key it could never be found or deduplicated. */
function transcriptNeedsKey(
  body: { transcript?: string | undefined; sessionKey?: string | undefined },
  ctx: z.RefinementCtx,
) {
  if (body.transcript !== undefined && body.sessionKey === undefined)
    ctx.addIssue({ code: "custom", path: ["sessionKey"], message: "sessionKey is required with a transcript" });
}

/** One memory from a caller: a line of `cairn remember --file`, an item of an HTTP request. */
export const rememberItem = lazily(() => request(rememberFields).superRefine(transcriptNeedsKey));

/**
 * One memory given to the library's `Cairn.remember`: the caller's fields, checked, plus the fields only
 * code sets (who, why, provenance, occurredAt...), passed through as they are.
 */
export const rememberEntry = lazily(() =>
  z.looseObject({ ...rememberFields, cwd: cwd.optional() }, { error: issueMessage }).superRefine(transcriptNeedsKey),
);

/**
 * An HTTP remember request: one memory (`content`) or a batch (`items`) sharing scope, ref, type, cwd,
 * and the transcript of the session they came from.
 */
export const rememberRequest = lazily(() =>
  request({
    content: rememberFields.content.optional(),
    items: z
      .array(request(rememberFields), { error: issueMessage })
      .min(1)
      .max(requestLimits.rememberItems, { error: overLimit("the limit for one request") })
      .optional(),
    scope: rememberFields.scope,
    ref: rememberFields.ref,
    type: rememberFields.type,
    occurredAt: rememberFields.occurredAt,
    searchTerms: rememberFields.searchTerms,
    transcript: rememberFields.transcript,
    sessionKey: rememberFields.sessionKey,
    cwd: cwd.optional(),
  }).superRefine((body, ctx) => {
    transcriptNeedsKey(body, ctx);
    body.items?.forEach((item, index) => {
      if (item.transcript !== undefined && item.sessionKey === undefined && body.sessionKey === undefined)
        ctx.addIssue({
          code: "custom",
          path: ["items", index, "sessionKey"],
          message: "sessionKey is required with a transcript",
        });
    });
    if ((body.content === undefined) === (body.items === undefined)) {
      ctx.addIssue({
        code: "custom",
        path: ["content"],
        message: "content or items is required (one of them, not both)",
      });
    }
  }),
);

/** The one message for an occurredAt that is not a time, whichever part of the union refused it. */
function notADate(issue: { path?: PropertyKey[] | undefined; input?: unknown }): string {
  const given = typeof issue.input === "string" ? `; got ${JSON.stringify(issue.input.slice(0, 64))}` : "";
  return `${fieldOf(issue)} must be epoch milliseconds or an ISO date${given}`;
}

/**
 * What is wrong with when something was said, given now: a time more than a day ahead (a day allows
 * for time zones) is a mistake, a typo in the year or a clock far ahead, and it would count as newer
 * than everything said until then, replacing the current memory of its subject. Undefined when nothing
 * is. `field` names the value in the message.
 */
export function futureProblem(
  occurredAt: number | string | undefined,
  now: number,
  field = "occurredAt",
): string | undefined {
  if (occurredAt === undefined) return undefined;
  const at = typeof occurredAt === "number" ? occurredAt : Date.parse(occurredAt);
  if (!Number.isFinite(at) || at <= now + DAY_MS) return undefined;
  return `${field} ${new Date(at).toISOString()} is in the future (now ${new Date(now).toISOString()}): give when it was said`;
}
