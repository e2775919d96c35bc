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

export function textView(input: string): TextView {
  // Three native replaces: a replace with a callback cost a third of the redaction of code.
  const unescaped = input.includes("\\")
    ? input.replace(/\\n/g, "\r\n").replace(/\\r/g, "\r\r").replace(/\\t/g, "\t\t")
    : input;
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
