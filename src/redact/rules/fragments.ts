/**
 * Pattern pieces shared by the context rules, as regex source. Every repetition is bounded so that
 * a failed attempt costs a constant, whatever the input.
 */

/** `=`, `:`, `:=`, `=>` with optional blanks around; not `==` (a comparison). */
export const ASSIGN = String.raw`[ \t]{0,8}(?::=|=>|=(?!=)|:)[ \t]{0,8}`;

/**
 * An annotated assignment, `password: str = "..."` or `token?: string = "..."`: the annotation is
 * skipped so that the value after `=` is the one checked.
 */
export const TYPED_ASSIGN = String.raw`\??[ \t]{0,4}:[ \t]{0,4}[A-Za-z_][A-Za-z0-9_.|\[\]]{0,40}[ \t]{0,4}=(?!=)[ \t]{0,8}`;

/**
 * A value in one of four shapes, each its own capture group (so a rule lists `group: [n, n+1, n+2,
 * n+3]`): double-quoted (also JSON-escaped `\"...\"`), single-quoted, backquoted, or bare up to a
 * blank, quote, comma, semicolon, bracket or the `&` that starts a query string's next parameter
 * (`&next=`, `&amp;`); any other `&` belongs to the value (`Tr0ub4dor&3`), which would otherwise
 * leak its tail. Quotes never occur inside single- or back-quoted values, and a bare value stops at a
 * JSON escape (`\n`, `\"`): so a match in JSON-serialized text never runs past the end of its string.
 */
export const VALUE = String.raw`(?:\\?"((?:[^"\\\r\n]|\\[^"\r\n]){1,512})\\?"|'([^'"\r\n]{1,512})'|\x60([^\x60"\r\n]{1,512})\x60|((?:[^\s"'\x60,;(){}\[\]<>&\\]|&(?!amp;|[\w.\[\]-]{1,64}=)|\\(?![nrtu"\\/])){1,512}))`;

/**
 * What a file view may put before a line (see test/redact/fileViews.ts), optional: Claude Code's
 * Read ("     9→"), `cat -n` and `nl` ("     9\t"), OpenCode ("00009| ", "9: "), grep and rg ("9:",
 * "path:9:", "9-"), oh-my-pi's hashlines ("9#ZP:", "9:a3| "), a diff's "+". For rules whose match
 * spans lines.
 */
export const LINE_PREFIX = String.raw`(?:[ \t]{0,8}(?:[^\s:"'\\]{1,128}:)?\d{1,7}(?:\u2192|\t|[ \t]?\|[ \t]?|:[ \t]?|-|#[A-Za-z0-9]{1,16}[:|][ \t]?|:[A-Za-z0-9]{1,16}\|[ \t]?)|\+)?`;
