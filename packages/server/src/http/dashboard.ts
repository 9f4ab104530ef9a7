/**
 * The dashboard's built files (ServerConfig.dashboardDir), served at / next
 * to the API: hashed assets cached for good, the router's page paths answered
 * with index.html so deep links and reloads land on the right page, anything
 * else 404. index.html
 * names the internal project's publishable key (public by design), so the
 * dashboard works when the internal project requires one.
 */
import { DASHBOARD_ROUTE_ROOTS } from "@latchkey/shared";
import { existsSync, readFileSync, statSync } from "node:fs";
import { extname, join, normalize, sep } from "node:path";
import { currentStrictTransportSecurity, STRICT_TRANSPORT_SECURITY_HEADER } from "./response.ts";

const CONTENT_TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".html": "text/html; charset=utf-8",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".wasm": "application/wasm",
  ".txt": "text/plain; charset=utf-8",
};

/**
 * The purchase pages (`/purchase/…`) take cards with Stripe.js: its script and frames, the API it calls, and
 * the card issuer's checks (3-D Secure) that Stripe frames. No other page may load anything of Stripe's.
 */
const STRIPE_JS = "https://js.stripe.com https://*.js.stripe.com";

/**
 * The page may run only its own scripts and talk only to this server; inline styles are allowed
 * because React's style props and the components' injected stylesheet use them. Images: this
 * server's own (stored profile images and logos, which it serves at its address), `data:` URLs, and
 * any https address (pictures from OAuth providers, logos and images set through the server API);
 * never plain http, which an https page could only show as mixed content and a network could
 * change on the way. E-mail previews are sandboxed iframes (srcdoc), which inherit this policy.
 */
function contentSecurityPolicy(stripe: boolean): string {
  return [
    "default-src 'self'",
    `script-src 'self'${stripe ? ` ${STRIPE_JS}` : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: https:",
    `connect-src 'self'${stripe ? " https://api.stripe.com" : ""}`,
    `frame-src 'self' about: data:${stripe ? ` ${STRIPE_JS} https://hooks.stripe.com` : ""}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self'",
  ].join("; ");
}

/** Built once: the pages' policies never change. */
const PAGE_POLICY = contentSecurityPolicy(false);
const PURCHASE_PAGE_POLICY = contentSecurityPolicy(true);

/**
 * The page may name its origin to the sites it links to (never its path, which names projects and users);
 * unlike the API's answers, which name nothing (http/response.ts).
 */
function pageHeaders(stripe: boolean): Record<string, string> {
  return withTransportSecurity({
    "content-type": CONTENT_TYPES[".html"]!,
    "cache-control": "no-cache",
    "content-security-policy": stripe ? PURCHASE_PAGE_POLICY : PAGE_POLICY,
    "x-content-type-options": "nosniff",
    "referrer-policy": "strict-origin-when-cross-origin",
    "x-frame-options": "DENY",
  });
}

/** The server's Strict-Transport-Security, on the dashboard's answers too (they are not built by http/response.ts). */
function withTransportSecurity(headers: Record<string, string>): Record<string, string> {
  const value = currentStrictTransportSecurity();
  if (value !== null) headers[STRICT_TRANSPORT_SECURITY_HEADER] = value;
  return headers;
}

export class DashboardSite {
  #publishableClientKey: string | null;
  #index: string | null = null;

  /** `apiUrl`: this server's public address (ServerConfig.apiUrl), which OAuth callbacks and apps' settings must use. */
  constructor(
    private readonly dir: string,
    publishableClientKey: string | null,
    private readonly apiUrl: string,
  ) {
    if (!existsSync(join(dir, "index.html"))) {
      throw new Error(
        `No built dashboard in ${dir} (index.html is missing): run \`npm run build -w @latchkey/dashboard\`, or unset LATCHKEY_DASHBOARD_DIR.`,
      );
    }
    this.#publishableClientKey = publishableClientKey;
  }

  /** The key index.html names (main.ts sets the development key once it has made or read it). */
  setPublishableClientKey(key: string | null) {
    this.#publishableClientKey = key;
    this.#index = null;
  }

  /**
   * The answer to a GET or HEAD outside /api, or null when the path is not the dashboard's (a missing asset,
   * or an unknown path asked by anything but a browser). `accept`: the request's Accept header.
   */
  respond(path: string, method: string, accept?: string | null): Response | null {
    if (method !== "GET" && method !== "HEAD") return null;
    // The page itself goes out only with its headers (the policy that forbids framing it, the key).
    if (path === "/index.html") return this.page(method, path);
    const file = this.fileOf(path);
    if (file) {
      const body = method === "HEAD" ? null : readFileSync(file);
      return new Response(body, {
        headers: withTransportSecurity({
          "content-type": CONTENT_TYPES[extname(file)] ?? "application/octet-stream",
          // Vite names built assets by their content hash: a changed file is a new name.
          "cache-control": path.startsWith("/assets/") ? "public, max-age=31536000, immutable" : "no-cache",
          "x-content-type-options": "nosniff",
          "referrer-policy": "strict-origin-when-cross-origin",
          "x-frame-options": "DENY",
        }),
      });
    }
    // A missing hashed asset is a stale page asking for an old build: a 404 lets it fail visibly instead of parsing HTML as code.
    if (path.startsWith("/assets/") || extname(path) !== "") return null;
    // The router's pages; anything else is no page of the dashboard's.
    if (path === "/" || isPagePath(path)) return this.page(method, path);
    // A person who followed a wrong link still gets the dashboard's own "Page not found", with a 404 status
    // that load balancers, crawlers and scripts (which do not ask for HTML) read as it is.
    return accept?.includes("text/html") ? this.page(method, path, 404) : null;
  }

  private page(method: string, path: string, status = 200): Response {
    const headers = pageHeaders(status === 200 && path.startsWith("/purchase/"));
    return new Response(method === "HEAD" ? null : this.index(), { status, headers });
  }

  private fileOf(path: string): string | null {
    if (path === "/") return null;
    let decoded: string;
    try {
      decoded = decodeURIComponent(path);
    } catch {
      return null;
    }
    // Dotfiles (the build's source fingerprint) are the build's own, never the page's.
    if (decoded.includes("\0") || decoded.split(/[\\/]/).some((part) => part.startsWith("."))) return null;
    const full = normalize(join(this.dir, decoded));
    if (!full.startsWith(this.dir + sep)) return null;
    const stat = statSync(full, { throwIfNoEntry: false });
    return stat?.isFile() ? full : null;
  }

  private index(): string {
    if (this.#index === null) {
      const html = readFileSync(join(this.dir, "index.html"), "utf8");
      const key = this.#publishableClientKey;
      const meta =
        `<meta name="latchkey-api-url" content="${escapeAttribute(this.apiUrl)}" />` +
        (key ? `<meta name="latchkey-publishable-client-key" content="${escapeAttribute(key)}" />` : "");
      this.#index = html.replace("</head>", `${meta}</head>`);
    }
    return this.#index;
  }
}

const PAGE_ROOTS = new Set<string>(DASHBOARD_ROUTE_ROOTS);

function isPagePath(path: string): boolean {
  const end = path.indexOf("/", 1);
  return PAGE_ROOTS.has(end < 0 ? path.slice(1) : path.slice(1, end));
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
}
