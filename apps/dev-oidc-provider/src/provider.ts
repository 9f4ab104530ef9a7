/**
 * An OpenID Connect provider for development and tests (oidc-provider from
 * npm). A Latchkey server whose shared providers have the `MOCK` client id
 * and secret, with STACK_OAUTH_MOCK_URL pointing here, sends every such
 * provider (GitHub, Google, …) to this one: its sign-in page lets the
 * developer pick any e-mail and name, so social sign-in works offline on a
 * fresh clone. Each provider id is a client (client id = provider id).
 *
 * Not for production: accounts and grants live in memory and the signing
 * key is made at start.
 */
import { OAUTH_PROVIDER_IDS } from "@latchkey/shared/constants";
import { generateKeyPairSync } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Provider, { type KoaContextWithOIDC } from "oidc-provider";

/** What every client authenticates with (the server sends it for `MOCK` credentials). */
export const DEV_CLIENT_SECRET = "MOCK-SERVER-SECRET";

export interface DevOidcProviderOptions {
  /** 0: any free port. */
  port?: number;
  host?: string;
  /** The Latchkey servers' public base URLs (without /api/v1): each provider's callback there is a registered redirect URI. */
  apiUrls: string[];
  /**
   * Development and tests only: every refresh hands out a new refresh token
   * and spends the old one (reusing a spent one ends the grant), as providers
   * that rotate do. Off (the default): the refresh token stays valid, as
   * with Google or GitHub.
   */
  rotateRefreshTokens?: boolean;
}

export interface DevOidcProvider {
  /** The issuer (discovery at `<url>/.well-known/openid-configuration`). */
  url: string;
  close(): Promise<void>;
}

interface Person {
  email: string;
  name: string | null;
}

export async function startDevOidcProvider(options: DevOidcProviderOptions): Promise<DevOidcProvider> {
  const host = options.host ?? "127.0.0.1";
  const http = createServer();
  await new Promise<void>((resolve) => http.listen(options.port ?? 0, host, resolve));
  const { port } = http.address() as AddressInfo;
  const url = `http://${host === "0.0.0.0" ? "localhost" : host}:${port}`;
  const people = new Map<string, Person>();
  const provider = new Provider(url, {
    // Every provider id a Latchkey server knows is a client here.
    clients: OAUTH_PROVIDER_IDS.map((id) => ({
      client_id: id,
      client_secret: DEV_CLIENT_SECRET,
      redirect_uris: options.apiUrls.map((api) => `${api.replace(/\/+$/, "")}/api/v1/auth/oauth/callback/${id}`),
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "client_secret_basic",
    })),
    jwks: { keys: [signingKey()] },
    // The account id is the e-mail the developer typed, as a provider's stable user id.
    findAccount: (_ctx: KoaContextWithOIDC, sub: string) => ({
      accountId: sub,
      claims: () => ({ sub, email: sub, email_verified: true, name: people.get(sub)?.name ?? undefined }),
    }),
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    interactions: { url: (_ctx: KoaContextWithOIDC, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    features: { devInteractions: { enabled: false } },
    renderError: (ctx: KoaContextWithOIDC, out: { error: string; error_description?: string | undefined }) => {
      ctx.type = "text/plain; charset=utf-8";
      ctx.body = `${out.error}: ${out.error_description ?? ""}`;
    },
    // Refresh tokens for whoever asks for offline access, as real providers give them with `prompt=consent`.
    issueRefreshToken: (_ctx: KoaContextWithOIDC, client: { grantTypeAllowed(type: string): boolean }) =>
      client.grantTypeAllowed("refresh_token"),
    rotateRefreshToken: options.rotateRefreshTokens ?? false,
    ttl: {
      AccessToken: 3600,
      AuthorizationCode: 600,
      RefreshToken: 30 * 24 * 3600,
      Interaction: 3600,
      Session: 3600,
      Grant: 30 * 24 * 3600,
    },
  });
  const callback = provider.callback();
  http.on("request", (req, res) => {
    const path = new URL(req.url ?? "/", url).pathname;
    if (path === "/revoke-refresh-token" && req.method === "POST") {
      revokeRefreshToken(provider, req, res).catch((error: unknown) => {
        res.statusCode = 500;
        res.end(error instanceof Error ? error.message : String(error));
      });
      return;
    }
    const match = /^\/interaction\/([^/]+)(\/(login|deny))?$/.exec(path);
    if (!match) {
      callback(req, res);
      return;
    }
    interaction(provider, people, req, res, match[3] ?? null).catch((error: unknown) => {
      res.statusCode = 500;
      res.setHeader("content-type", "text/plain; charset=utf-8");
      res.end(`The development sign-in failed: ${error instanceof Error ? error.message : String(error)}`);
    });
  });
  return {
    url,
    close: () =>
      new Promise<void>((resolve, reject) => {
        http.closeAllConnections();
        http.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

function signingKey() {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  return { ...privateKey.export({ format: "jwk" }), use: "sig", alg: "RS256", kid: "dev" };
}

/** The sign-in page (GET), and what its two buttons do (POST …/login, POST …/deny). */
async function interaction(
  provider: Provider,
  people: Map<string, Person>,
  req: IncomingMessage,
  res: ServerResponse,
  action: string | null,
): Promise<void> {
  const details = await provider.interactionDetails(req, res);
  if (action === null) {
    const client = String(details.params.client_id ?? "");
    res.setHeader("content-type", "text/html; charset=utf-8");
    res.end(signInPage(details.uid, client));
    return;
  }
  if (action === "deny") {
    await provider.interactionFinished(req, res, { error: "access_denied", error_description: "The user denied access." });
    return;
  }
  const form = new URLSearchParams(await bodyOf(req));
  const email = (form.get("email") ?? "").trim().toLowerCase();
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
    res.statusCode = 400;
    res.setHeader("content-type", "text/html; charset=utf-8");
    res.end(signInPage(details.uid, String(details.params.client_id ?? ""), "Enter an e-mail address."));
    return;
  }
  people.set(email, { email, name: form.get("name")?.trim() || null });
  // Consent is granted at once: the developer is both the user and the app's owner here.
  const grant = new provider.Grant({ accountId: email, clientId: String(details.params.client_id) });
  grant.addOIDCScope(String(details.params.scope ?? "openid"));
  const grantId = await grant.save();
  await provider.interactionFinished(req, res, { login: { accountId: email }, consent: { grantId } }, { mergeWithLastSubmission: false });
}

/**
 * Development and tests only: POST /revoke-refresh-token {"token": …} ends
 * the refresh token's grant, as a user revoking the app at a real provider
 * would; its next refresh is refused with invalid_grant. Answers 204.
 */
async function revokeRefreshToken(provider: Provider, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { token } = JSON.parse(await bodyOf(req)) as { token?: string };
  const refreshToken = token ? await provider.RefreshToken.find(token) : undefined;
  if (refreshToken) {
    const grant = refreshToken.grantId ? await provider.Grant.find(refreshToken.grantId) : undefined;
    await grant?.destroy();
    await refreshToken.destroy();
  }
  res.statusCode = 204;
  res.end();
}

function bodyOf(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (text += chunk));
    req.on("end", () => resolve(text));
    req.on("error", reject);
  });
}

function signInPage(uid: string, client: string, error?: string): string {
  const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Development sign-in</title>
<style>body{font-family:system-ui,sans-serif;max-width:26rem;margin:4rem auto;padding:0 1rem;color:#1a1a1a}
label{display:block;margin:.8rem 0 .2rem}input{width:100%;padding:.5rem;font-size:1rem;box-sizing:border-box}
.row{display:flex;gap:.5rem;margin-top:1.2rem}button{padding:.5rem 1rem;font-size:1rem}.error{color:#a40000}</style></head>
<body><main>
<h1>Development sign-in</h1>
<p>A Latchkey app asks to sign you in with <strong>${escape(client)}</strong>. This provider is for development only: choose any e-mail; it counts as verified.</p>
${error ? `<p class="error" role="alert">${escape(error)}</p>` : ""}
<form method="post" action="/interaction/${escape(uid)}/login">
<label for="email">E-mail</label><input id="email" name="email" type="email" autocomplete="email" required autofocus>
<label for="name">Name (optional)</label><input id="name" name="name" autocomplete="name">
<div class="row"><button type="submit">Continue</button>
<button type="submit" formaction="/interaction/${escape(uid)}/deny" formnovalidate>Deny access</button></div>
</form></main></body></html>`;
}
