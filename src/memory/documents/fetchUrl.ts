import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { isIP, type LookupFunction } from "node:net";
import { redactText } from "../../redact/redact.js";
import { CairnError, errorMessage } from "../../util/errors.js";
import { privateAddressProblem } from "./addressPolicy.js";
import { readableText } from "./readableText.js";

export interface FetchOptions {
  timeoutMs: number;
  /** Bytes of the body read at most: a larger answer is refused while it streams, not after. */
  maxBytes: number;
  /** Fetch from loopback, link-local and private addresses too (`workers.documents.allowPrivateAddresses`). */
  allowPrivateAddresses: boolean;
  /** Why an address may not be reached (default: `privateAddressProblem`); tests narrow it to one address. */
  addressProblem?: (address: string) => string | undefined;
  /** Redirects followed at most; each hop's address is checked again. */
  maxRedirects?: number;
}

export interface FetchedDocument {
  /** The URL the text came from, after redirects. */
  url: string;
  contentType: string;
  title: string | null;
  text: string;
  bytes: number;
}

/**
 * The media types a document may be fetched as: pages, plain text, Markdown, JSON and XML. Everything
 * else (stylesheets, scripts, images, archives...) is refused: it is not prose to recall.
 */
export const FETCHABLE_TYPES = [
  "text/html",
  "application/xhtml+xml",
  "text/plain",
  "text/markdown",
  "text/x-markdown",
  "application/json",
  "application/xml",
  "text/xml",
] as const;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const DEFAULT_MAX_REDIRECTS = 5;

/**
 * Fetches a URL's text for a document (seed 004's URL fetcher): http and https only, one timeout over
 * every hop and the body, a byte cap checked against Content-Length and again while the body streams,
 * a content-type allow-list, HTML turned into text with its title. The address every connection is
 * made to is checked (not only the host name, so a name that resolves to 127.0.0.1 is refused as well),
 * on every redirect; redirects are capped and a loop is named. Any refusal is one CairnError
 * (`bad_input`) saying what to do. Proxies are not used: the address checked must be the one reached.
 */
export async function fetchUrlContent(url: string, options: FetchOptions): Promise<FetchedDocument> {
  const { Agent, request } = await import("undici");
  const refused: { problem?: string } = {};
  const policy = options.allowPrivateAddresses ? () => undefined : (options.addressProblem ?? privateAddressProblem);
  const agent = new Agent({ connect: { lookup: guardedLookup(policy, refused) } });
  // One deadline over every hop and the body, cleared on return: a timer left armed would abort a
  // finished request later, and its body's error would surface with nobody listening.
  const controller = new AbortController();
  const deadline = setTimeout(() => controller.abort(), options.timeoutMs);
  const signal = controller.signal;
  const seen = new Set<string>();
  const limit = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  let current = httpUrl(url);
  try {
    for (let hop = 0; ; hop++) {
      checkTarget(current, policy);
      seen.add(current.href);
      let answer: Awaited<ReturnType<typeof request>>;
      try {
        answer = await request(current, {
          method: "GET",
          dispatcher: agent,
          signal,
          headers: { accept: FETCHABLE_TYPES.join(", "), "user-agent": "cairn-document-ingest" },
        });
      } catch (error) {
        if (refused.problem) throw refusal(current, refused.problem);
        if (signal.aborted)
          throw refusal(current, `no answer within ${options.timeoutMs} ms (workers.documents.fetchTimeoutMs)`);
        throw refusal(current, `could not connect (${causeOf(error)})`);
      }
      if (REDIRECTS.has(answer.statusCode)) {
        await answer.body.dump();
        const location = headerOf(answer.headers, "location");
        if (!location) throw refusal(current, `HTTP ${answer.statusCode} redirect without a Location`);
        const next = httpUrl(new URL(location, current).href);
        if (seen.has(next.href)) throw refusal(current, `redirect loop (back to ${next.href})`);
        if (hop + 1 > limit) throw refusal(current, `more than ${limit} redirects`);
        current = next;
        continue;
      }
      if (answer.statusCode < 200 || answer.statusCode >= 300) {
        await answer.body.dump();
        throw refusal(current, `HTTP ${answer.statusCode}; check the address`);
      }
      const contentType = headerOf(answer.headers, "content-type") ?? "";
      const mediaType = contentType.split(";")[0]!.trim().toLowerCase();
      if (!(FETCHABLE_TYPES as readonly string[]).includes(mediaType)) {
        await answer.body.dump();
        throw refusal(
          current,
          `content type ${mediaType || "(none)"} is not a document (accepted: ${FETCHABLE_TYPES.join(", ")})`,
        );
      }
      const declared = Number(headerOf(answer.headers, "content-length"));
      if (Number.isFinite(declared) && declared > options.maxBytes) {
        discard(answer.body);
        throw refusal(current, tooLarge(declared, options.maxBytes));
      }
      const bytes = await readCapped(answer.body, options.maxBytes, current, signal, options.timeoutMs);
      const text = readableText(bytes, mediaType, charsetOf(contentType), current.href);
      return { url: current.href, contentType: mediaType, title: text.title, text: text.text, bytes: bytes.length };
    }
  } finally {
    clearTimeout(deadline);
    await agent.destroy().catch(() => undefined);
  }
}

/** Reads the body, counting bytes as they arrive; past `maxBytes` the stream is destroyed and refused. */
async function readCapped(
  body: Body,
  maxBytes: number,
  url: URL,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  let total = 0;
  try {
    for await (const part of body) {
      total += part.length;
      if (total > maxBytes) {
        discard(body);
        throw refusal(url, tooLarge(total, maxBytes, true));
      }
      parts.push(part);
    }
  } catch (error) {
    if (CairnError.isInstance(error)) throw error;
    if (signal.aborted)
      throw refusal(url, `the body did not arrive within ${timeoutMs} ms (workers.documents.fetchTimeoutMs)`);
    throw refusal(url, `the body broke off (${causeOf(error)})`);
  }
  return Buffer.concat(parts);
}

type Body = AsyncIterable<Uint8Array> & {
  destroy(error?: Error): unknown;
  on(event: "error", listener: () => void): unknown;
};

/** Drops a body not read to its end; the abort that follows must not surface as an unhandled error. */
function discard(body: Body): void {
  body.on("error", () => undefined);
  body.destroy();
}

function tooLarge(bytes: number, maxBytes: number, streaming = false): string {
  return `${streaming ? "more than" : ""} ${bytes} bytes is over workers.documents.maxContentBytes (${maxBytes})`.trim();
}

/** A resolver that refuses, and remembers why, any address the policy does not allow. */
function guardedLookup(policy: (address: string) => string | undefined, refused: { problem?: string }): LookupFunction {
  const lookup = (
    hostname: string,
    options: { all?: boolean; family?: number },
    callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const list = addresses as LookupAddress[];
      for (const { address } of list) {
        const problem = policy(address);
        if (problem) {
          refused.problem = `${hostname} resolves to ${problem}`;
          return callback(Object.assign(new Error(refused.problem), { code: "EADDRNOTALLOWED" }), []);
        }
      }
      if (list.length === 0)
        return callback(Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" }), []);
      if (options.all) return callback(null, list);
      return callback(null, list[0]!.address, list[0]!.family);
    });
  };
  return lookup as LookupFunction;
}

/** A URL a document may be fetched from: http or https; anything else is refused with what to give. */
export function httpUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    // What was given is quoted back: redacted, since a token pasted by mistake is as likely as a URL.
    throw new CairnError("bad_input", `ingest: ${JSON.stringify(redactText(text).slice(0, 200))} is not a URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new CairnError("bad_input", `ingest: ${url.protocol} URLs are not fetched; give an http or https URL`);
  return url;
}

/** A host written as an address is never looked up, so the policy is applied to it here. */
function checkTarget(url: URL, policy: (address: string) => string | undefined): void {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host) === 0) return;
  const problem = policy(host);
  if (problem) throw refusal(url, problem);
}

function refusal(url: URL, why: string): CairnError {
  // The address is shown without its query, and redacted with the reason (a token in its path, a
  // Location header, a host name): the message reaches error lines, logs and the document's row.
  return new CairnError("bad_input", `${redactText(`${url.origin}${url.pathname}`)}: ${redactText(why)}`);
}

function headerOf(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function charsetOf(contentType: string): string | undefined {
  return /charset\s*=\s*"?([^";\s]+)/i.exec(contentType)?.[1];
}

function causeOf(error: unknown): string {
  const cause = (error as { cause?: unknown }).cause;
  return errorMessage(cause ?? error).split("\n")[0] ?? "error";
}
