/**
 * OAuth sign-in in tests, through the real thing: the development OpenID
 * provider (apps/dev-oidc-provider) as a child process on loopback, every
 * shared provider sent to it (MOCK credentials), and a small cookie-keeping
 * browser that walks authorize → the provider's sign-in page → our callback
 * (served in-process by the test server) → the app's redirect_uri with a code.
 */
import { OAUTH_PROVIDER_IDS } from "@latchkey/shared";
import { spawn, type ChildProcess } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";
import type { ServerConfig } from "../src/config.ts";
import { createProject, type Project } from "./fixtures.ts";
import { createTestServer, type TestResponse, type TestServer } from "./harness.ts";

const REPO_ROOT = fileURLToPath(new URL("../../../", import.meta.url));
/** The test server's public URL (harness.ts's default), which the provider accepts callbacks for. */
export const API_URL = "http://localhost:8102";
/** The app's page that receives the code (trusted: projects allow localhost by default). */
export const APP_CALLBACK = "http://localhost:3000/handler/oauth-callback";

export interface DevProviderProcess {
  url: string;
  close(): Promise<void>;
}

/** Starts `node --import tsx apps/dev-oidc-provider/src/main.ts` on a free port and reads its URL from its first line. */
export async function startDevProviderProcess(apiUrl = API_URL, env: Record<string, string> = {}): Promise<DevProviderProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", "apps/dev-oidc-provider/src/main.ts"], {
    cwd: REPO_ROOT,
    env: { ...process.env, OIDC_PORT: "0", OIDC_HOST: "127.0.0.1", LATCHKEY_API_URL: apiUrl, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let errors = "";
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (errors += chunk));
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
      const match = /Development OpenID provider at (\S+)/.exec(out);
      if (match) resolve(match[1]!);
    });
    child.once("exit", (code) => reject(new Error(`The development OpenID provider exited (${code}):\n${out}\n${errors}`)));
  });
  return { url, close: () => stop(child) };
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

export interface OAuthTestbed {
  server: TestServer;
  provider: DevProviderProcess;
  close(): Promise<void>;
}

/** A test server whose 12 shared providers all go to a freshly started development provider. */
export async function startOAuthTestbed(
  overrides: Partial<ServerConfig> = {},
  providerEnv: Record<string, string> = {},
): Promise<OAuthTestbed> {
  const provider = await startDevProviderProcess(API_URL, providerEnv);
  const server = await createTestServer({
    apiUrl: API_URL,
    oauthMockUrl: provider.url,
    sharedOAuthCredentials: Object.fromEntries(OAUTH_PROVIDER_IDS.map((id) => [id, { kind: "mock" as const }])),
    ...overrides,
  });
  return {
    server,
    provider,
    async close() {
      await server.close();
      await provider.close();
    },
  };
}

/** A project with shared GitHub and Google (so, the development provider). */
export function createOAuthProject(server: TestServer, config: Record<string, unknown> = {}): Promise<Project> {
  return createProject(server, undefined, {
    oauth_providers: [
      { id: "github", type: "shared" },
      { id: "google", type: "shared" },
    ],
    ...config,
  });
}

/**
 * A browser that follows redirects by hand and keeps cookies per origin.
 * Requests to the test server's API URL are served in-process.
 */
export class Browser {
  private readonly jars = new Map<string, Map<string, string>>();

  constructor(private readonly server: TestServer) {}

  cookies(url: string): Map<string, string> {
    const origin = new URL(url).origin;
    let jar = this.jars.get(origin);
    if (!jar) this.jars.set(origin, (jar = new Map()));
    return jar;
  }

  async go(url: string, init: { method?: string; form?: Record<string, string>; headers?: Record<string, string> } = {}) {
    const jar = this.cookies(url);
    const headers: Record<string, string> = { ...init.headers };
    if (jar.size > 0) headers.cookie = [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
    let body: string | undefined;
    if (init.form) {
      body = new URLSearchParams(init.form).toString();
      headers["content-type"] = "application/x-www-form-urlencoded";
    }
    const request = { method: init.method ?? (body ? "POST" : "GET"), headers, body, redirect: "manual" as const };
    const apiOrigin = new URL(this.server.config.apiUrl).origin;
    const parsed = new URL(url);
    const res =
      parsed.origin === apiOrigin
        ? await this.server.instance.app.request(`http://localhost${parsed.pathname}${parsed.search}`, request)
        : await fetch(url, request);
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(";");
      const eq = pair!.indexOf("=");
      const name = pair!.slice(0, eq).trim();
      const deleted = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a));
      if (deleted) jar.delete(name);
      else jar.set(name, pair!.slice(eq + 1).trim());
    }
    return res;
  }

  /** Follows redirects while they stay on the API or the provider; returns where it stopped. */
  async follow(url: string, providerUrl: string, init: Parameters<Browser["go"]>[1] = {}): Promise<{ url: string; res: Response }> {
    let at = url;
    let res = await this.go(at, init);
    while (res.status >= 300 && res.status < 400) {
      at = new URL(res.headers.get("location")!, at).toString();
      if (!at.startsWith(providerUrl) && !at.startsWith(this.server.config.apiUrl)) return { url: at, res };
      res = await this.go(at);
    }
    return { url: at, res };
  }
}

/** The app's side of PKCE: a verifier it keeps and the S256 challenge it sends. */
export function newPkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

export interface AuthorizeOptions {
  providerId?: string;
  redirectUri?: string;
  query?: Record<string, string>;
}

/** The authorize query the SDK sends, for this project. */
export function authorizeQuery(project: Project, pkce: { challenge: string }, state: string, options: AuthorizeOptions = {}) {
  return {
    client_id: project.id,
    client_secret: project.client.publishableClientKey!,
    redirect_uri: options.redirectUri ?? APP_CALLBACK,
    scope: "legacy",
    state,
    grant_type: "authorization_code",
    code_challenge: pkce.challenge,
    code_challenge_method: "S256",
    response_type: "code",
    ...options.query,
  };
}

export function authorizeUrl(query: Record<string, string>, providerId = "github"): string {
  return `${API_URL}/api/v1/auth/oauth/authorize/${providerId}?${new URLSearchParams(query)}`;
}

export interface StartedSignIn {
  browser: Browser;
  pkce: { verifier: string; challenge: string };
  state: string;
  /** The provider's sign-in form's action (…/interaction/<uid>/login). */
  loginUrl: string;
  authorize: Response;
}

/** Opens authorize in a new browser and follows it to the provider's sign-in page. */
export async function startSignIn(testbed: OAuthTestbed, project: Project, options: AuthorizeOptions = {}): Promise<StartedSignIn> {
  const browser = new Browser(testbed.server);
  const pkce = newPkce();
  const state = randomBytes(16).toString("base64url");
  const url = authorizeUrl(authorizeQuery(project, pkce, state, options), options.providerId);
  const authorize = await browser.go(url);
  expect(authorize.status, await authorize.clone().text()).toBe(307);
  const page = await browser.follow(authorize.headers.get("location")!, testbed.provider.url);
  expect(page.res.status).toBe(200);
  const html = await page.res.text();
  const action = /action="([^"]+\/login)"/.exec(html)![1]!;
  return { browser, pkce, state, loginUrl: new URL(action, testbed.provider.url).toString(), authorize };
}

/** Signs in on the provider's page (or denies) and follows back through our callback to the app; returns the app URL. */
export async function finishOnProvider(
  testbed: OAuthTestbed,
  started: StartedSignIn,
  person: { email: string; name?: string } | "deny",
): Promise<URL> {
  const back =
    person === "deny"
      ? await started.browser.follow(started.loginUrl.replace(/\/login$/, "/deny"), testbed.provider.url, { method: "POST" })
      : await started.browser.follow(started.loginUrl, testbed.provider.url, { form: { email: person.email, name: person.name ?? "" } });
  expect(back.res.status, await back.res.clone().text()).toBeGreaterThanOrEqual(300);
  return new URL(back.url);
}

/** Follows the provider's sign-in up to (not into) our callback: the callback URL the provider sends the browser to. */
export async function providerCallbackUrl(testbed: OAuthTestbed, started: StartedSignIn, email: string): Promise<string> {
  let res = await started.browser.go(started.loginUrl, { form: { email, name: "" } });
  let at = started.loginUrl;
  while (res.status >= 300 && res.status < 400) {
    at = new URL(res.headers.get("location")!, at).toString();
    if (at.startsWith(testbed.server.config.apiUrl)) return at;
    res = await started.browser.go(at);
  }
  throw new Error(`The provider did not send the browser back: ${res.status} ${await res.text()}`);
}

/** POST /auth/oauth/token with the code grant, as the SDK sends it. */
export function exchangeCode(
  server: TestServer,
  project: Project,
  input: { code: string; verifier: string; redirectUri?: string },
): Promise<TestResponse> {
  return server.request("/auth/oauth/token", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code: input.code,
      redirect_uri: input.redirectUri ?? APP_CALLBACK,
      code_verifier: input.verifier,
      client_id: project.id,
      client_secret: project.client.publishableClientKey!,
    }).toString(),
  });
}

/** Authorize, the provider, our callback: the code the app receives, and the verifier to exchange it with. */
export async function signInToCode(
  testbed: OAuthTestbed,
  project: Project,
  email: string,
  options: AuthorizeOptions = {},
): Promise<{ code: string; verifier: string; appUrl: URL }> {
  const started = await startSignIn(testbed, project, options);
  const appUrl = await finishOnProvider(testbed, started, { email });
  expect(appUrl.searchParams.get("errorCode"), appUrl.toString()).toBeNull();
  expect(appUrl.searchParams.get("state")).toBe(started.state);
  return { code: appUrl.searchParams.get("code")!, verifier: started.pkce.verifier, appUrl };
}

/** The whole sign-in: authorize, the provider, our callback, the token exchange. Returns the token response. */
export async function signInWithProvider(
  testbed: OAuthTestbed,
  project: Project,
  email: string,
  options: AuthorizeOptions = {},
): Promise<TestResponse> {
  const { code, verifier } = await signInToCode(testbed, project, email, options);
  return exchangeCode(testbed.server, project, { code, verifier, redirectUri: options.redirectUri });
}
