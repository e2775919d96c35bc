/**
 * The readable text of an HTML page and its title, for chunking: the first <title>, the body without
 * scripts, styles and other non-text elements, tags removed with a line break where a block ends, the
 * common entities decoded, blank runs collapsed. Not a browser: no layout, no scripts run, which is what
 * a page's words need. (No HTML library among the dependencies fits; see docs/decisions/documents.md.)
 */
export function htmlToText(html: string): { title: string | null; text: string } {
  const titleMatch = /<title\b[^>]*>([\s\S]*?)<\/title\s*>/i.exec(html);
  const title = titleMatch ? collapse(decodeEntities(stripTags(titleMatch[1]!))) : "";
  const body = html
    .replace(/<!--[\s\S]*?-->/g, " ")
    .replace(/<!\[CDATA\[[\s\S]*?\]\]>/g, " ")
    .replace(NON_TEXT, " ")
    .replace(/<(script|style|noscript|template|svg|head)\b[^>]*\/>/gi, " ")
    .replace(BLOCK_BREAK, "\n");
  const text = decodeEntities(stripTags(body))
    .split("\n")
    .map(collapse)
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  return { title: title === "" ? null : title, text };
}

/** Elements whose content is never page text (the head's <title> is read before these go). */
const NON_TEXT = /<(script|style|noscript|template|svg|head|iframe|object)\b[^>]*>[\s\S]*?<\/\1\s*>/gi;

/** Tags that start or end a block: their place becomes a line break. */
const BLOCK_BREAK =
  /<\/?(p|div|br|hr|li|ul|ol|dl|dt|dd|h[1-6]|tr|table|thead|tbody|section|article|header|footer|nav|aside|main|blockquote|pre|figure|figcaption|form|fieldset|address|details|summary)\b[^>]*>/gi;

function stripTags(html: string): string {
  return html.replace(/<\/?[a-zA-Z][^>]*>/g, " ").replace(/<[!?][^>]*>/g, " ");
}

function collapse(line: string): string {
  return line.replace(/[ \t\f\v\r\u00a0]+/g, " ").trim();
}

const NAMED: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  ndash: "\u2013",
  mdash: "\u2014",
  hellip: "\u2026",
  lsquo: "\u2018",
  rsquo: "\u2019",
  ldquo: "\u201c",
  rdquo: "\u201d",
  laquo: "\u00ab",
  raquo: "\u00bb",
  bull: "\u2022",
  middot: "\u00b7",
  copy: "\u00a9",
  reg: "\u00ae",
  trade: "\u2122",
  deg: "\u00b0",
  times: "\u00d7",
  euro: "\u20ac",
  pound: "\u00a3",
  sect: "\u00a7",
  para: "\u00b6",
  rarr: "\u2192",
  larr: "\u2190",
  zwj: "",
  zwnj: "",
  shy: "",
};

/** Decodes numeric entities and the common named ones; an unknown name stays as written. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z][a-z0-9]*);/gi, (whole, name: string) => {
    if (name.startsWith("#")) {
      const code = name[1] === "x" || name[1] === "X" ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return Number.isInteger(code) && code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff)
        ? String.fromCodePoint(code)
        : whole;
    }
    const key = name.toLowerCase();
    return Object.hasOwn(NAMED, key) ? NAMED[key]! : whole;
  });
}
