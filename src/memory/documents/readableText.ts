import { redactText } from "../../redact/redact.js";
import { CairnError } from "../../util/errors.js";
import { htmlToText } from "./htmlToText.js";

/** The kinds of text a document is read as, from its media type or its file's extension. */
export type TextKind = "html" | "markdown" | "text" | "json" | "xml";

export function kindOfMediaType(mediaType: string): TextKind {
  if (mediaType === "text/html" || mediaType === "application/xhtml+xml") return "html";
  if (mediaType === "text/markdown" || mediaType === "text/x-markdown") return "markdown";
  if (mediaType === "application/json") return "json";
  if (mediaType === "application/xml" || mediaType === "text/xml") return "xml";
  return "text";
}

/**
 * A document's bytes as text, with a title when it has one: refused when they are not text (a NUL
 * byte, or bytes that are not valid in their declared encoding: an image, an archive, a compiled file),
 * JSON checked to parse, HTML and XML turned into their readable text, a Markdown file's first `# `
 * heading taken as its title. `name` (a path or URL) is named in errors.
 */
export function readableText(
  bytes: Uint8Array,
  kind: TextKind | string,
  charset: string | undefined,
  name: string,
): { title: string | null; text: string } {
  const textKind = (["html", "markdown", "text", "json", "xml"] as const).includes(kind as TextKind)
    ? (kind as TextKind)
    : kindOfMediaType(kind);
  if (bytes.includes(0)) throw refused(name, "is binary, not text (it holds NUL bytes)");
  // A page that declares its encoding only in a <meta> (older sites in Latin-1) is read in it.
  charset ??= textKind === "html" ? metaCharset(bytes) : undefined;
  let text: string;
  try {
    text = new TextDecoder(charset ?? "utf-8", { fatal: true }).decode(bytes);
  } catch (error) {
    if (error instanceof RangeError)
      throw refused(name, `declares the unknown text encoding ${JSON.stringify(charset)}`);
    throw refused(name, `is binary, not text (it is not valid ${charset ?? "UTF-8"})`);
  }
  text = text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  if (textKind === "json") {
    try {
      JSON.parse(text);
    } catch (error) {
      throw refused(name, `is not valid JSON (${(error as Error).message})`);
    }
    return { title: null, text };
  }
  if (textKind === "html" || textKind === "xml") return htmlToText(text);
  if (textKind === "markdown") {
    const heading = /^#[ \t]+(.+?)[ \t#]*$/m.exec(text)?.[1]?.trim();
    return { title: heading || null, text };
  }
  return { title: null, text };
}

/**
 * The refusal of a document's text, redacted: `name` is a path or a URL with its query (a token), and
 * the parser's own message can quote the text.
 */
function refused(name: string, why: string): CairnError {
  return new CairnError("bad_input", `${redactText(name)} ${redactText(why)}`);
}

/** The encoding an HTML page names in its first kilobytes (`<meta charset>` or `http-equiv` content). */
function metaCharset(bytes: Uint8Array): string | undefined {
  const head = Buffer.from(bytes.subarray(0, 2048)).toString("latin1");
  return /<meta[^>]+charset\s*=\s*["']?([\w-]+)/i.exec(head)?.[1];
}
