/**
 * The text the rules read, which may differ from the text given to `redact` in two ways, both
 * mapped back to the input's offsets:
 *
 * - JSON escapes of line breaks and tabs (`\n`, `\r`, `\t` as two characters) read as the blanks
 *   they stand for. A transcript line stores a file's lines as `...\n     9→ghp_...`, and a rule
 *   that wants a token not glued to a letter (`(?<![A-Za-z0-9_])ghp_`) would see it glued to "n".
 *   Same length (`\n` reads as CR LF), so offsets do not move.
 * - Invisible characters (zero-width space, joiner and non-joiner, word joiner, BOM, soft hyphen)
 *   are left out: pasted from a chat or a web page they sit inside tokens (`ghp_ab\u200Bcd...`) and
 *   split them for a regex, not for a reader. A finding covers the invisible characters inside it.
 */
export interface TextView {
  text: string;
  /** The input offset of the view's offset `start` (a finding's start). */
  start(offset: number): number;
  /** The input offset just after the view's character `end - 1` (a finding's end). */
  end(offset: number): number;
}

const INVISIBLE = /[\u00AD\u200B-\u200D\u2060\uFEFF]/;
const INVISIBLE_ALL = /[\u00AD\u200B-\u200D\u2060\uFEFF]/g;

const identity = (offset: number) => offset;

const AS_BLANKS: Record<string, string> = { n: "\r\n", r: "\r\r", t: "\t\t" };

/** `\n`, `\r`, `\t` (two characters each) as two blanks; a jump from backslash to backslash. */
function escapesAsBlanks(input: string): string {
  let at = input.indexOf("\\");
  if (at === -1) return input;
  let out = "";
  let kept = 0;
  while (at !== -1 && at < input.length - 1) {
    const blanks = AS_BLANKS[input.charAt(at + 1)];
    // `\\n` reads as a backslash and a line break: doubly escaped JSON keeps its line breaks.
    if (blanks === undefined) at = input.indexOf("\\", at + 1);
    else {
      out += input.slice(kept, at) + blanks;
      kept = at + 2;
      at = input.indexOf("\\", kept);
    }
  }
  return kept === 0 ? input : out + input.slice(kept);
}

export function textView(input: string): TextView {
  const unescaped = escapesAsBlanks(input);
  if (!INVISIBLE.test(unescaped)) return { text: unescaped, start: identity, end: identity };
  // Where each character of the view sits in the input.
  const at = new Int32Array(unescaped.length + 1);
  let view = "";
  let n = 0;
  let kept = 0;
  INVISIBLE_ALL.lastIndex = 0;
  for (let m = INVISIBLE_ALL.exec(unescaped); m !== null; m = INVISIBLE_ALL.exec(unescaped)) {
    view += unescaped.slice(kept, m.index);
    for (let i = kept; i < m.index; i++) at[n++] = i;
    kept = m.index + 1;
  }
  view += unescaped.slice(kept);
  for (let i = kept; i < unescaped.length; i++) at[n++] = i;
  at[n] = unescaped.length;
  return {
    text: view,
    start: (offset) => at[offset]!,
    end: (offset) => (offset === 0 ? 0 : at[offset - 1]! + 1),
  };
}
