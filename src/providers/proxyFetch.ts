import type { Dispatcher } from "undici";

/** What the HTTP helper reads from an answer; both Node's fetch and undici's give it. */
export interface HttpAnswer {
  status: number;
  ok: boolean;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
  /** The body as a stream, for downloads too large to hold in memory. */
  body: AsyncIterable<Uint8Array> | null;
}

export interface HttpRequestInit {
  method?: string;
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
}

/** The variables curl and undici's EnvHttpProxyAgent read; the lowercase name wins when both are set. */
const PROXY_VARIABLES = ["http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY"] as const;
const ENV_VARIABLES = [...PROXY_VARIABLES, "no_proxy", "NO_PROXY"] as const;

let cached: { key: string; agent: Promise<Dispatcher> } | undefined;

/**
 * fetch that honours HTTP_PROXY, HTTPS_PROXY and NO_PROXY (either case). Node's own fetch ignores them
 * (Node 24 only reads them behind NODE_USE_ENV_PROXY), which leaves users behind a corporate proxy
 * unable to reach any provider. undici is loaded only when a proxy is set, so the usual path costs nothing.
 */
export async function proxyFetch(url: string, init: HttpRequestInit): Promise<HttpAnswer> {
  if (!PROXY_VARIABLES.some((name) => process.env[name])) return fetch(url, init);
  const key = ENV_VARIABLES.map((name) => process.env[name] ?? "").join("\n");
  const { fetch: undiciFetch } = await import("undici");
  return undiciFetch(url, { ...init, dispatcher: await proxyAgent(key) });
}

/** One agent per proxy setting, so connections to the proxy are reused; a changed setting gets a new one. */
function proxyAgent(key: string): Promise<Dispatcher> {
  if (cached?.key !== key) {
    // EnvHttpProxyAgent reads the variables itself: lowercase over uppercase, NO_PROXY with wildcards.
    cached = { key, agent: import("undici").then(({ EnvHttpProxyAgent }) => new EnvHttpProxyAgent()) };
  }
  return cached.agent;
}
