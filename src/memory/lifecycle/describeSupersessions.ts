import type { RememberOutcome } from "../types.js";

/** How much of a replaced memory's text a line quotes. */
const QUOTE_CHARS = 80;

function quoted(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > QUOTE_CHARS ? `"${line.slice(0, QUOTE_CHARS - 1)}…"` : `"${line}"`;
}

/**
 * One line per supersession a remember caused, as every door prints it: what was replaced and why, or
 * that the new memory was already out of date; and one per review flag it raised, for a person to
 * decide (`cairn memory review`, or the MCP and HTTP review tools). `cairn memory restore` brings a
 * replaced memory back.
 */
export function describeSupersessions(outcome: RememberOutcome): string[] {
  const lines = (outcome.superseded ?? []).map((s) => `superseded #${s.id} ${quoted(s.content)} (${s.reason})`);
  if (outcome.supersededBy)
    lines.push(
      `#${outcome.id} is already replaced by the newer #${outcome.supersededBy.id} (${outcome.supersededBy.reason})`,
    );
  for (const f of outcome.flagged ?? [])
    lines.push(`flagged for review against #${f.with} (flag #${f.flag}: ${f.reason})`);
  return lines;
}
