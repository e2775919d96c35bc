/** Where one secret was found: UTF-16 offsets into the text given to `redact`, and the rule's name. */
export interface Finding {
  rule: string;
  start: number;
  end: number;
}

export interface RedactResult {
  /** The input with every finding replaced by `[REDACTED:<rule>]`. */
  text: string;
  /** Sorted by start, never overlapping; offsets refer to the input, not to `text`. */
  findings: Finding[];
}

/**
 * One detection rule, as data. Expects: `pattern` has the `g` flag and runs in linear time (every
 * unbounded run is fenced by a look-behind so that a failed attempt is not retried inside the run;
 * see test/redact/adversarial.test.ts).
 */
export interface SecretRule {
  /** Shown in the marker and in findings: lowercase, dash-separated. */
  name: string;
  /** Grouping for the bench (cloud, vcs, ai, ...). */
  family: string;
  pattern: RegExp;
  /**
   * The capture group(s) holding the secret; with several, the first that took part in the match.
   * Absent: the whole match is the secret.
   */
  group?: number | readonly number[];
  /**
   * The secret runs from the start of `group` to the end of the match. For a group captured in a
   * look-behind, which lets a pattern begin at a literal (`-` of `-us6`, `.` of `.atlasv1.`) that the
   * engine scans for quickly, instead of at a character class tried at every position.
   */
  throughMatchEnd?: boolean;
  /**
   * Lowercase substrings, one of which occurs in every match. The rule is skipped when none occurs
   * in the text (the screen). Absent: the rule always runs, so keep such rules few and cheap.
   */
  keywords?: readonly string[];
  /**
   * For a rule without keywords: the shortest text any match needs (what its pattern consumes plus
   * what its look-behinds read). A shorter text skips the rule; test/redact/rules.test.ts checks it.
   */
  minLength?: number;
  /**
   * What the text holds right after the keyword in every match (tested with its own flags, at the
   * end of each keyword occurrence): a keyword not so followed does not select the rule. Only
   * for rules whose keywords are common words; it must hold for every match, or the screen hides it.
   */
  after?: RegExp;
  /**
   * The token's prefix may follow `-` or `_` (`authenticates-xoxb-...`, `token_ghp_...`): its look-behind
   * admits them. A match glued so must look generated (a digit, and not words joined, see
   * `looksGenerated`), so that an identifier such as `load_hf_AutoModelForCausalLM` is not taken.
   */
  glued?: boolean;
  /** Minimum Shannon entropy of the secret in bits per character (see entropy.ts). */
  minEntropy?: number;
  /** Last word on a candidate: false drops it (placeholders, code, prose). */
  validate?: (secret: string, match: RegExpExecArray) => boolean;
}
