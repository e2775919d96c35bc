/**
 * Splits prose into sentences, dropping code blocks and quoted output, which are not statements; a
 * sentence shorter than `minLength` is dropped (a statement needs a few words; a correction such as
 * "no modals!" is shorter).
 */
export function sentences(text: string, minLength = 12): string[] {
  const prose = text
    .replace(/```[\s\S]*?```/g, " ")
    .split("\n")
    .filter((line) => !/^\s*(?:>|\$ |\||[-=]{3,})/.test(line))
    .join("\n");
  return (
    prose
      .split(/(?<=[.!?])\s+|\n{1,}/)
      // A list item's marker ("- ", "1. ", "- - ") is layout, not part of the statement.
      .map((sentence) =>
        sentence
          .replace(/\s+/g, " ")
          .trim()
          .replace(/^(?:(?:[-*+\u2022]|\d{1,3}[.)])\s+)+/, ""),
      )
      .filter((sentence) => sentence.length >= minLength && sentence.length <= 400)
  );
}

/** The first line or sentence of a message, shortened: how a request or an answer is named. */
export function headline(text: string, max = 160): string {
  const first =
    text
      .replace(/```[\s\S]*?```/g, " ")
      .split("\n")
      .map((line) => line.trim())
      .find((line) => line.length > 0) ?? "";
  const flat = first.replace(/\s+/g, " ");
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
}

/**
 * An agent's report in a few lines: its final message is often Markdown (a "## Summary" heading, then
 * bullets), whose first line names nothing. Headings become labels of what follows, list items and
 * paragraphs are joined with "; ", emphasis and code fences are dropped, and the text is cut at an item
 * boundary near `max` characters.
 */
export function reportDigest(text: string, max = 600): string {
  const parts: string[] = [];
  let label = "";
  for (const raw of text.replace(/```[\s\S]*?```/g, " ").split("\n")) {
    const line = raw.trim();
    if (line === "" || /^(?:[-=*_]{3,}|\|)/.test(line)) continue;
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    if (heading) {
      label = plain(heading[1]!).replace(/:$/, "");
      continue;
    }
    const item = plain(line.replace(/^(?:[-*+\u2022]|\d{1,3}[.)])\s+/, ""));
    if (item.length < 3) continue;
    parts.push(label ? `${label}: ${item}` : item);
    label = "";
  }
  let out = "";
  for (const part of parts) {
    const next = out === "" ? part : `${out}; ${part}`;
    if (next.length > max) {
      if (out === "") out = `${part.slice(0, max - 1).trimEnd()}…`;
      else out += " …";
      break;
    }
    out = next;
  }
  return out;
}

/** Markdown emphasis and runs of white space removed; code spans kept (they name things). */
function plain(text: string): string {
  return withoutEmphasis(text).replace(/\s+/g, " ").trim();
}

/** Markdown's strong emphasis (`**x**`, `__x__`) reduced to its text. */
export function withoutEmphasis(text: string): string {
  return text.replace(/\*\*([^*]+)\*\*/g, "$1").replace(/__([^_]+)__/g, "$1");
}
