import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Context, Hono } from "hono";
import { setCookie } from "hono/cookie";
import { UI_COOKIE, UI_SESSION_TTL_MS, type UiAccess } from "./uiAccess.js";

/** The page's files: fixed names, so no request path ever reaches the file system. */
const ASSETS: Record<string, string> = {
  "index.html": "text/html; charset=utf-8",
  "app.js": "text/javascript; charset=utf-8",
  "style.css": "text/css; charset=utf-8",
};

/** Paths the memory browser serves without a token: the page itself (it holds no data) and the code exchange. */
export const UI_PUBLIC_PATHS = new Set([
  "/ui",
  "/ui/",
  "/ui/login",
  ...Object.keys(ASSETS).map((name) => `/ui/${name}`),
]);

const HEADERS = {
  // Only the page's own script and style; the API is same-origin. Memory text is rendered as text, and
  // this keeps an injected <script> or inline handler from running even if that ever slipped.
  "Content-Security-Policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  "X-Content-Type-Options": "nosniff",
  // The login URL carries a one-time code: never send it on as a Referer.
  "Referrer-Policy": "no-referrer",
  "Cache-Control": "no-store",
};

/**
 * The folder of the page: src/ui in a checkout (the files edited), dist/ui in the package (copied there
 * by scripts/copy-assets.mjs). Two folders up from this module is the package root, both from
 * dist/server and from the bundled dist/cli.
 */
function uiDir(): string | undefined {
  const root = fileURLToPath(new URL("../../", import.meta.url));
  return [join(root, "src", "ui"), join(root, "dist", "ui")].find((dir) => existsSync(join(dir, "index.html")));
}

/** Registers the memory browser (`cairn ui`): the page under /ui/ and, with a token, the code exchange. */
export function serveUi(app: Hono, access: UiAccess | undefined): void {
  const dir = uiDir();
  const asset = (c: Context, name: string) => {
    const type = ASSETS[name];
    if (!dir || !type) return c.json({ error: "the memory browser's files are missing from this installation" }, 404);
    return c.body(readFileSync(join(dir, name)), 200, { ...HEADERS, "Content-Type": type });
  };
  app.get("/ui", (c) => c.redirect("/ui/", 308));
  app.get("/ui/", (c) => asset(c, "index.html"));
  for (const name of Object.keys(ASSETS)) app.get(`/ui/${name}`, (c) => asset(c, name));
  app.get("/ui/login", (c) => {
    const session = access?.redeem(c.req.query("code") ?? "");
    if (!session) {
      return c.text("This memory browser link was used already or has expired: run 'cairn ui' again.\n", 401, HEADERS);
    }
    setCookie(c, UI_COOKIE, session, {
      httpOnly: true,
      sameSite: "Strict",
      path: "/",
      maxAge: UI_SESSION_TTL_MS / 1000,
    });
    return c.redirect("/ui/", 303);
  });
}
