/** Paragraphs on distinct subjects, so each chunk of a document has words of its own to be found by. */
export const paragraphs = (subjects: string[]): string =>
  subjects
    .map((subject) => `The ${subject} procedure: ${`${subject} needs a review before release. `.repeat(4)}`)
    .join("\n\n");
