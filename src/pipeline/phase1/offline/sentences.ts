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
          .replace(/^(?:(?:[-*+•]|\d{1,3}[.)])\s+)+/, ""),
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
