import { STOP_WORDS } from "../text/stopWords.js";

export interface LinkedEntity {
  name: string;
  entityType: string;
  confidence: number;
}

/** Words that start sentences or are capitalized by habit, never entities on their own. */
const NOT_NAMES = new Set(["i", "the", "a", "an", "my", "our", "this", "that", "it", "we", "you", "he", "she", "they"]);

const PATTERNS: readonly { re: RegExp; type: string; confidence: number }[] = [
  // `backticked` identifiers and file paths: tools, commands, files.
  { re: /`([^`\n]{2,60})`/g, type: "tool", confidence: 0.8 },
  { re: /(?:^|\s)((?:\.{0,2}\/)?[\w.-]+\/[\w./-]+\.[a-z0-9]{1,8})\b/g, type: "file", confidence: 0.7 },
  // Package-like names: @scope/name, name@1.2.
  { re: /(@[a-z0-9-]+\/[a-z0-9._-]+)/g, type: "tool", confidence: 0.8 },
  // Runs of capitalized words ("Visual Studio Code", "Caroline"), possibly with inner digits/dots.
  { re: /\b([A-Z][\w.+#-]*[\w+#](?:\s+[A-Z][\w.+#-]*[\w+#]){0,3})(?![\w])/g, type: "extracted", confidence: 0.6 },
  // CamelCase and ALLCAPS identifiers (PostgreSQL, SQLite, API).
  { re: /\b([a-z]+[A-Z][A-Za-z0-9]+|[A-Z]{2,}[a-z0-9]*)\b/g, type: "extracted", confidence: 0.6 },
];

/**
 * The fast path of entity extraction: regexes only, no model, deterministic, so it can run inside the
 * write transaction and make a memory reachable through the graph the moment it is stored.
 */
export function linkEntities(content: string, maxEntities = 12): LinkedEntity[] {
  const found = new Map<string, LinkedEntity>();
  for (const { re, type, confidence } of PATTERNS) {
    for (const match of content.matchAll(re)) {
      const name = (match[1] ?? "").trim().replace(/[.,:;]+$/, "");
      const key = name.toLowerCase();
      if (name.length < 2 || NOT_NAMES.has(key) || STOP_WORDS.has(key) || found.has(key)) continue;
      // A redaction marker names no entity: it would join every redacted memory into one hub.
      if (key.includes("redacted")) continue;
      if (type === "extracted" && !name.includes(" ") && startsSentence(content, match.index ?? 0)) continue;
      found.set(key, { name, entityType: type, confidence });
      if (found.size >= maxEntities) return [...found.values()];
    }
  }
  return [...found.values()];
}

/** A lone capitalized word opening a sentence is capitalized by grammar, not because it is a name. */
function startsSentence(content: string, index: number): boolean {
  const before = content.slice(Math.max(0, index - 3), index);
  return index === 0 || /[.!?:]\s*$/.test(before) || /^\s*$/.test(content.slice(0, index));
}
