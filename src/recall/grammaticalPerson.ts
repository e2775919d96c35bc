// Contractions ("I'm", "you've") are split at the apostrophe by \b, so "i" and "you" match inside them.
const FIRST_PERSON = /\b(?:i|me|my|mine|myself|we|us|our|ours|ourselves)\b/i;
const SECOND_PERSON = /\b(?:you|your|yours|yourself|yourselves|y'all)\b/i;

/**
 * Whom a memory's text speaks of: its speaker ("I", "my", "we": first person anywhere), only the one
 * it addresses ("you", "your" and no first person), or neither.
 */
export function grammaticalPerson(text: string): "speaker" | "addressee" | "neither" {
  if (FIRST_PERSON.test(text)) return "speaker";
  return SECOND_PERSON.test(text) ? "addressee" : "neither";
}
