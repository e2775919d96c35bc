import { looksGenerated } from "./gates.js";
import { RULES } from "./rules.js";
import { createScreen, type Screen } from "./screen.js";
import type { Finding, RedactResult, SecretRule } from "./types.js";
import { type TextView, textView } from "./view.js";

/** What replaces a secret. Markers are never matched again, which makes redaction idempotent. */
export function marker(rule: string): string {
  return `[REDACTED:${rule}]`;
}

const MARKER = /\[REDACTED:[a-z0-9-]{1,64}\]/g;

interface Prepared {
  rule: SecretRule;
  /** Position in RULES: lower wins when matches overlap. */
  priority: number;
  /** The rule's pattern with the `d` flag, for exact group offsets. */
  pattern: RegExp;
  keywords: readonly string[] | undefined;
  after: RegExp | undefined;
  minLength: number | undefined;
}

const prepared: Prepared[] = RULES.map((rule, priority) => ({
  rule,
  priority,
  pattern: new RegExp(
    rule.pattern.source,
    rule.pattern.flags.includes("d") ? rule.pattern.flags : `${rule.pattern.flags}d`,
  ),
  keywords: rule.keywords,
  after: rule.after,
  minLength: rule.minLength,
}));
// Built on first use: commands that never redact (recall, inject) do not pay for the automaton.
let screen: Screen<Prepared> | undefined;
const screenOf = () => (screen ??= createScreen(prepared));

interface Candidate extends Finding {
  priority: number;
}

/** The secret's span in a match: the first listed group that took part, or the whole match. */
function secretSpan(rule: SecretRule, match: RegExpExecArray): readonly [number, number] | undefined {
  const groups = rule.group === undefined ? [0] : typeof rule.group === "number" ? [rule.group] : rule.group;
  for (const group of groups) {
    const span = match.indices?.[group];
    if (span === undefined || span[1] <= span[0]) continue;
    return rule.throughMatchEnd ? [span[0], match.index + match[0].length] : span;
  }
  return undefined;
}

/**
 * A secret that ends inside an escape (`...abc\` before `"` in JSON-escaped text) loses the
 * backslash, so that the redacted text stays valid wherever the input was.
 */
function withoutDanglingEscape(text: string, start: number, end: number): number {
  let slashes = 0;
  while (end - slashes > start && text.charCodeAt(end - 1 - slashes) === 92) slashes++;
  return slashes % 2 === 1 ? end - 1 : end;
}

/** A secret that starts on the letter of an escape (`\n`, read as a line break) starts after it. */
function afterEscape(text: string, start: number): number {
  let slashes = 0;
  while (start - slashes > 0 && text.charCodeAt(start - 1 - slashes) === 92) slashes++;
  return slashes % 2 === 1 ? start + 1 : start;
}

/** Whether the match at `at` follows `-` or `_` (a token glued to a word: `deploy-`, `token_`). */
function gluedToWord(text: string, at: number): boolean {
  const before = text.charCodeAt(at - 1);
  return before === 45 || before === 95;
}

/** The rule's matches in the view, as spans of the input. */
function candidatesOf({ rule, priority, pattern }: Prepared, input: string, view: TextView): Candidate[] {
  const found: Candidate[] = [];
  const text = view.text;
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    if (match[0].length === 0) pattern.lastIndex++;
    const span = secretSpan(rule, match);
    if (span === undefined) continue;
    const secret = text.slice(span[0], withoutDanglingEscape(text, span[0], span[1]));
    if (secret.trim().length === 0 || (rule.validate && !rule.validate(secret, match))) continue;
    if (rule.glued && gluedToWord(text, match.index) && !looksGenerated(secret)) continue;
    const start = afterEscape(input, view.start(span[0]));
    const end = withoutDanglingEscape(input, start, view.end(span[1]));
    if (end > start) found.push({ rule: rule.name, start, end, priority });
  }
  return found;
}

/**
 * Drops candidates overlapping a marker already in the text: that was redacted before. Both lists
 * are walked in order of start, so this stays linear however many markers there are.
 */
function outsideMarkers(text: string, candidates: Candidate[]): Candidate[] {
  if (!text.includes("[REDACTED:")) return candidates;
  const markers = [...text.matchAll(MARKER)].map((m) => ({ start: m.index, end: m.index + m[0].length }));
  candidates.sort((a, b) => a.start - b.start);
  const kept: Candidate[] = [];
  let m = 0;
  for (const candidate of candidates) {
    while (m < markers.length && markers[m]!.end <= candidate.start) m++;
    const marker = markers[m];
    if (marker === undefined || marker.start >= candidate.end) kept.push(candidate);
  }
  return kept;
}

/** Overlapping candidates become one finding covering their union, named by the earliest rule. */
function merge(candidates: Candidate[]): Finding[] {
  candidates.sort((a, b) => a.start - b.start || b.end - a.end || a.priority - b.priority);
  const merged: Candidate[] = [];
  for (const next of candidates) {
    const last = merged[merged.length - 1];
    if (last === undefined || next.start >= last.end) {
      merged.push({ ...next });
      continue;
    }
    last.end = Math.max(last.end, next.end);
    if (next.priority < last.priority) {
      last.rule = next.rule;
      last.priority = next.priority;
    }
  }
  return merged.map(({ rule, start, end }) => ({ rule, start, end }));
}

/** Finds every secret in `text` and replaces each with `[REDACTED:<rule>]`, keeping its context. */
export function redact(text: string): RedactResult {
  const view = textView(text);
  const rules = screenOf().select(view.text);
  if (rules.length === 0) return { text, findings: [] };
  const candidates = outsideMarkers(
    text,
    rules.flatMap((rule) => candidatesOf(rule, text, view)),
  );
  if (candidates.length === 0) return { text, findings: [] };
  const findings = merge(candidates);
  let out = "";
  let cursor = 0;
  for (const finding of findings) {
    out += text.slice(cursor, finding.start) + marker(finding.rule);
    cursor = finding.end;
  }
  return { text: out + text.slice(cursor), findings };
}

/** `redact(text).text`. */
export function redactText(text: string): string {
  if (!text.includes("[REDACTED:")) return redact(text).text;
  // Each stretch between markers already in the text is redacted on its own: a rule that reads a
  // value up to the end of the line would otherwise take a later marker into the value and let it go
  // (`password=S3cret! [REDACTED:private]`).
  let out = "";
  let cursor = 0;
  for (const found of text.matchAll(MARKER)) {
    out += redact(text.slice(cursor, found.index)).text + found[0];
    cursor = found.index + found[0].length;
  }
  return out + redact(text.slice(cursor)).text;
}
