import { isIP } from "node:net";
import { weakTokenProblem } from "../config/schema.js";
import { CairnError } from "../util/errors.js";

/** Whether a host name or address only accepts connections from this machine. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  if (bare === "localhost" || bare === "::1") return true;
  return isIP(bare) === 4 && bare.startsWith("127.");
}

/**
 * The daemon's one network rule: loopback only, unless a token is configured; with a token every
 * route but /health requires it (createHttpApp enforces that part).
 */
export function assertBindAllowed(host: string, token: string | undefined): void {
  // Config validation refuses weak tokens too; this covers a token handed over by other means.
  const weak = token ? weakTokenProblem(token) : undefined;
  if (weak) throw new CairnError("weak_token", weak);
  if (isLoopbackHost(host) || (token !== undefined && token.length > 0)) return;
  throw new CairnError(
    "unsafe_bind",
    `refusing to listen on ${host}: it is reachable from other machines; set a token (cairn config set server.token "$(openssl rand -hex 32)") or use 127.0.0.1`,
  );
}

/**
 * Host names a loopback server without a token answers to. A web page whose domain was rebound to
 * 127.0.0.1 sends its own domain in the Host header and gets 403, so it cannot reach the API.
 */
export function loopbackHostNames(host: string): string[] {
  const bound = host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
  return [...new Set(["localhost", "127.0.0.1", "[::1]", bound.toLowerCase()])];
}

/** The host name of a Host header value, without the port. */
export function hostNameOf(hostHeader: string): string {
  const value = hostHeader.trim().toLowerCase();
  if (value.startsWith("[")) return value.slice(0, value.indexOf("]") + 1);
  return value.split(":")[0] ?? value;
}
