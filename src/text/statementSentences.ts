/**
 * The parts of a memory that each state one thing: sentences, clauses after a semicolon, and lines.
 * Unlike prose splitting for extraction (src/pipeline/phase1/offline/sentences.ts), nothing is dropped:
 * a memory is one or two short statements, and every part may name a change or a version.
 */
export function statementSentences(text: string): string[] {
  return text.split(/(?<=[.!?;])\s+|\n+/);
}
