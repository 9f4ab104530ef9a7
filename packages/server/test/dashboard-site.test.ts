/**
 * The dashboard's files served next to the API (http/dashboard.ts): pages
 * answer index.html with the internal project's publishable key, hashed
 * assets are cached for good, nothing outside the build is readable, and
 * the API's own 404s and 405s stay the API's.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createApp } from "../src/app.ts";
import { SEED_KEYS, createTestServer, type TestServer } from "./harness.ts";

let server: TestServer;
let root: string;

const get = (path: string, method = "GET") => server.instance.app.request(`http://localhost${path}`, { method });

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "latchkey-dashboard-site-"));
  const dist = join(root, "dist");
  mkdirSync(join(dist, "assets"), { recursive: true });
  writeFileSync(join(dist, "index.html"), "<!doctype html><html><head><title>x</title></head><body></body></html>");
  writeFileSync(join(dist, "assets", "app-abc123.js"), "console.log(1)");
  writeFileSync(join(dist, "favicon.svg"), "<svg/>");
  writeFileSync(join(dist, ".sources"), "fingerprint");
  writeFileSync(join(dist, "assets", ".hidden.js"), "fingerprint");
  // A file beside the build that must never be served.
  writeFileSync(join(root, "secret.txt"), "not for you");
  server = await createTestServer({ dashboardDir: dist });
});

afterAll(async () => {
  await server?.close();
  rmSync(root, { recursive: true, force: true });
});

describe("pages", () => {
  test.each(["/", "/projects", "/projects/6a1b/users/42?tab=sessions", "/handler/sign-in"])(
    "%s answers index.html with the key",
    async (path) => {
      const res = await get(path);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(res.headers.get("cache-control")).toBe("no-cache");
      expect(res.headers.get("content-security-policy")).toContain("script-src 'self'");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      const html = await res.text();
      expect(html).toContain(`<meta name="latchkey-publishable-client-key" content="${SEED_KEYS.publishableClientKey}" /></head>`);
      expect(html).toContain(`<meta name="latchkey-api-url" content="${server.config.apiUrl}" />`);
      expect(res.headers.get("x-frame-options")).toBe("DENY");
    },
  );

  test("only the purchase pages may load Stripe.js, its frames and its API", async () => {
    const purchase = (await get("/purchase/abc_def?return_url=x")).headers.get("content-security-policy")!;
    expect(purchase).toContain("script-src 'self' https://js.stripe.com https://*.js.stripe.com;");
    expect(purchase).toContain("connect-src 'self' https://api.stripe.com;");
    expect(purchase).toContain("frame-src 'self' about: data: https://js.stripe.com https://*.js.stripe.com https://hooks.stripe.com;");
    expect((await get("/purchase/return")).headers.get("content-security-policy")).toBe(purchase);
    for (const path of ["/", "/projects/6a1b/payments", "/index.html"]) {
      const policy = (await get(path)).headers.get("content-security-policy")!;
      expect(policy, path).toContain("script-src 'self';");
      expect(policy, path).not.toContain("stripe");
    }
  });

  test("a changed key is named from then on", async () => {
    server.instance.services.dashboard!.setPublishableClientKey('pck_"quoted"<key>');
    const html = await (await get("/")).text();
    expect(html).toContain('content="pck_&quot;quoted&quot;&lt;key>"');
    server.instance.services.dashboard!.setPublishableClientKey(SEED_KEYS.publishableClientKey);
  });

  test("HEAD answers without a body; other methods are not the dashboard's", async () => {
    const head = await get("/projects", "HEAD");
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    expect((await get("/projects", "POST")).status).toBe(404);
  });

  test("an unknown path is a 404: the page (its own 'Page not found') for a browser, plain text otherwise", async () => {
    const browser = await server.instance.app.request("http://localhost/no/such/page", {
      headers: { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" },
    });
    expect(browser.status).toBe(404);
    expect(browser.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await browser.text()).toContain('<meta name="latchkey-api-url"');
    const script = await get("/no/such/page");
    expect(script.status).toBe(404);
    expect(script.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    // The operating paths are never the page, whoever asks.
    const health = await server.instance.app.request("http://localhost/health", { headers: { accept: "text/html" } });
    expect(health.status).toBe(404);
    expect(await health.text()).not.toContain("<html");
  });
});

describe("files", () => {
  test("hashed assets are cached for good, other files are revalidated", async () => {
    const asset = await get("/assets/app-abc123.js");
    expect(asset.status).toBe(200);
    expect(asset.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(asset.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(await asset.text()).toBe("console.log(1)");
    const icon = await get("/favicon.svg");
    expect(icon.headers.get("content-type")).toBe("image/svg+xml");
    expect(icon.headers.get("cache-control")).toBe("no-cache");
  });

  test("a missing asset or file is a 404, not the page", async () => {
    expect((await get("/assets/app-old999.js")).status).toBe(404);
    expect((await get("/robots.txt")).status).toBe(404);
  });

  // Only what reaches the server as written: a URL parser resolves plain `..` and `%2e%2e` segments before sending.
  test.each(["/assets/..%2f..%2fsecret.txt", "/%2e%2e%2fsecret.txt", "/..%5csecret.txt", "/bad%zzescape.txt", "/nul%00.txt"])(
    "%s reads nothing outside the build",
    async (path) => {
      const res = await get(path);
      expect(res.status).toBe(404);
      expect(await res.text()).not.toContain("not for you");
    },
  );

  test("the build's own dotfiles are never served", async () => {
    for (const path of ["/.sources", "/assets/.hidden.js"]) {
      const res = await get(path);
      expect(await res.text()).not.toContain("fingerprint");
    }
  });

  test("/index.html is the page with its headers, not a plain file (it may not be framed)", async () => {
    const res = await get("/index.html");
    expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(await res.text()).toContain("latchkey-publishable-client-key");
  });
});

describe("security headers", () => {
  test("images may be this server's, data: URLs or any https address, never plain http", async () => {
    for (const path of ["/", "/projects/6a1b/users/42", "/purchase/abc_def"]) {
      const policy = (await get(path)).headers.get("content-security-policy")!;
      const images = policy.split("; ").find((directive) => directive.startsWith("img-src "));
      expect(images, path).toBe("img-src 'self' data: https:");
    }
  });

  test("pages and files carry Strict-Transport-Security when the public address is https, and only then", async () => {
    const { services } = server.instance;
    const https = createApp({ ...services, config: { ...services.config, apiUrl: "https://auth.example.com" } }, []);
    const html = { headers: { accept: "text/html" } };
    for (const [path, status] of [
      ["/", 200],
      ["/purchase/abc_def", 200],
      ["/assets/app-abc123.js", 200],
      ["/favicon.svg", 200],
      ["/no/such/page", 404],
    ] as const) {
      const secure = await https.request(`http://localhost${path}`, html);
      expect(secure.status, path).toBe(status);
      expect(secure.headers.get("strict-transport-security"), path).toBe("max-age=63072000; includeSubDomains");
      expect(secure.headers.get("x-content-type-options"), path).toBe("nosniff");
      expect(secure.headers.get("referrer-policy"), path).toBe("strict-origin-when-cross-origin");
      const plain = await server.instance.app.request(`http://localhost${path}`, html);
      expect(plain.headers.get("strict-transport-security"), path).toBeNull();
      expect(plain.headers.get("x-content-type-options"), path).toBe("nosniff");
    }
  });
});

describe("the API keeps its own answers", () => {
  test("an unknown API path is the API's 404, a known one with another method its 405", async () => {
    const missing = await get("/api/v1/no-such-endpoint");
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain("openapi.json");
    expect((await get("/api/v1/users/me", "PUT")).status).toBe(405);
    expect((await get("/api")).status).toBe(404);
  });

  test("without a dashboard, / is a 404", async () => {
    const bare = await createTestServer();
    try {
      expect((await bare.instance.app.request("http://localhost/")).status).toBe(404);
    } finally {
      await bare.close();
    }
  });
});
