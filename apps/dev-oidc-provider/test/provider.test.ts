/**
 * The development OpenID provider as a Latchkey server will use it, driven
 * over HTTP by openid-client: discovery, the sign-in page, the code with
 * PKCE, tokens with a refresh token, user info, and denial.
 */
import * as client from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEV_CLIENT_SECRET, startDevOidcProvider, type DevOidcProvider } from "../src/provider.ts";

const API_URL = "http://localhost:8102";
const CALLBACK = `${API_URL}/api/v1/auth/oauth/callback/github`;
let provider: DevOidcProvider;
let config: client.Configuration;

beforeAll(async () => {
  provider = await startDevOidcProvider({ apiUrls: [API_URL] });
  config = await client.discovery(new URL(provider.url), "github", DEV_CLIENT_SECRET, client.ClientSecretBasic(DEV_CLIENT_SECRET), {
    execute: [client.allowInsecureRequests],
  });
});
afterAll(() => provider?.close());

/** A tiny browser: follows redirects by hand, keeping the provider's cookies. */
class Browser {
  private readonly cookies = new Map<string, string>();

  async go(url: string, init: RequestInit = {}): Promise<Response> {
    const res = await fetch(url, {
      ...init,
      redirect: "manual",
      headers: { ...(init.headers as Record<string, string>), cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ") },
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const [name, value] = pair!.split("=");
      this.cookies.set(name!.trim(), value ?? "");
    }
    return res;
  }

  /** Follows redirects until one leaves the provider; returns that URL (or the page it stopped on). */
  async follow(url: string, init: RequestInit = {}): Promise<{ url: string; res: Response }> {
    let res = await this.go(url, init);
    let at = url;
    while (res.status >= 300 && res.status < 400) {
      at = new URL(res.headers.get("location")!, at).toString();
      if (!at.startsWith(provider.url)) return { url: at, res };
      res = await this.go(at);
    }
    return { url: at, res };
  }
}

async function authorize(browser: Browser) {
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: CALLBACK,
    scope: "openid email profile offline_access",
    prompt: "consent",
    state,
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
  });
  const page = await browser.follow(url.toString());
  expect(page.res.status).toBe(200);
  const html = await page.res.text();
  expect(html).toContain("Development sign-in");
  const action = /action="([^"]+\/login)"/.exec(html)![1]!;
  return { verifier, state, loginUrl: new URL(action, provider.url).toString() };
}

describe("the development OpenID provider", () => {
  it("signs in with any e-mail: code, tokens (with a refresh token) and user info", async () => {
    const browser = new Browser();
    const { verifier, state, loginUrl } = await authorize(browser);
    const back = await browser.follow(loginUrl, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email: "Ada@Example.com", name: "Ada Lovelace" }).toString(),
    });
    expect(back.url.startsWith(CALLBACK)).toBe(true);
    const tokens = await client.authorizationCodeGrant(config, new URL(back.url), { pkceCodeVerifier: verifier, expectedState: state });
    expect(tokens.refresh_token).toBeTruthy();
    expect(tokens.claims()).toMatchObject({ sub: "ada@example.com" });
    const info = await client.fetchUserInfo(config, tokens.access_token, "ada@example.com");
    expect(info).toMatchObject({ email: "ada@example.com", email_verified: true, name: "Ada Lovelace" });
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.access_token).toBeTruthy();
  });

  it("answers access_denied when the user denies", async () => {
    const browser = new Browser();
    const { loginUrl } = await authorize(browser);
    const back = await browser.follow(loginUrl.replace(/\/login$/, "/deny"), { method: "POST" });
    const params = new URL(back.url).searchParams;
    expect(params.get("error")).toBe("access_denied");
  });

  it("refuses a redirect URI that is not a Latchkey callback it was started for", async () => {
    const url = client.buildAuthorizationUrl(config, { redirect_uri: "http://evil.example/callback", scope: "openid", state: "s" });
    const res = await fetch(url, { redirect: "manual" });
    expect(res.status).toBe(400);
  });
});
