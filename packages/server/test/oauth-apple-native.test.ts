/**
 * POST /auth/oauth/callback/apple/native: signing in with the ID token of
 * Apple's native Sign in with Apple. Apple's key set cannot be reached from
 * tests, so the server is pointed (appleJwksUrl) at a key set served here on
 * loopback, and the tokens are signed here with jose as Apple would.
 */
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createProject, jwtPayload, patchProjectConfig, serverWithProject, uniqueEmail, type Project } from "./fixtures.ts";
import { expectKnownError, type TestServer } from "./harness.ts";
import { startLoopbackPeer, type LoopbackPeer } from "./loopback-peer.ts";

const BUNDLE_ID = "com.example.ios.app";
const APPLE_PROVIDER = {
  id: "apple",
  type: "standard",
  client_id: "com.example.web.service",
  client_secret: "apple-web-secret",
  apple_bundle_ids: [BUNDLE_ID, "com.example.ios.other"],
};

let server: TestServer;
let project: Project;
/** Apple's key set, served on loopback; `received` counts its fetches. */
let jwks: LoopbackPeer<null>;
let appleKey: CryptoKey;
let strangerKey: CryptoKey;

beforeAll(async () => {
  const apple = await generateKeyPair("RS256");
  appleKey = apple.privateKey;
  strangerKey = (await generateKeyPair("RS256")).privateKey;
  const publicJwk: JWK = { ...(await exportJWK(apple.publicKey)), kid: "apple-test", alg: "RS256", use: "sig" };
  jwks = await startLoopbackPeer({ method: "GET", path: "/auth/keys", read: () => null, reply: () => ({ json: { keys: [publicJwk] } }) });
  ({ server, project } = await serverWithProject({ server: { appleJwksUrl: jwks.url }, project: { oauth_providers: [APPLE_PROVIDER] } }));
});
afterAll(async () => {
  await server?.close();
  await jwks?.close();
});

interface Claims {
  sub?: string;
  email?: string;
  email_verified?: boolean | string;
  iss?: string;
  aud?: string;
  expiresInSeconds?: number;
}

/** An ID token as Apple signs it (kid and claims as Apple's), with the server's clock as now. */
async function idToken(claims: Claims = {}, key: CryptoKey = appleKey): Promise<string> {
  const now = Math.floor(server.clock.now() / 1000);
  return new SignJWT({ email: claims.email ?? uniqueEmail("apple"), email_verified: claims.email_verified ?? true })
    .setProtectedHeader({ alg: "RS256", kid: "apple-test" })
    .setIssuer(claims.iss ?? "https://appleid.apple.com")
    .setAudience(claims.aud ?? BUNDLE_ID)
    .setSubject(claims.sub ?? `001234.${Math.random().toString(36).slice(2)}.0001`)
    .setIssuedAt(now)
    .setExpirationTime(now + (claims.expiresInSeconds ?? 600))
    .sign(key);
}

function signIn(token: string, as = project.client) {
  return server.request("/auth/oauth/callback/apple/native", { method: "POST", as, body: { id_token: token } });
}

describe("POST /auth/oauth/callback/apple/native", () => {
  it("signs a new user up, then the same Apple account in again", async () => {
    const email = uniqueEmail("apple");
    const sub = "001234.abcdef.0001";
    const first = await signIn(await idToken({ sub, email }));
    expect(first.status, first.text).toBe(200);
    expect(Object.keys(first.body).sort()).toEqual(["access_token", "is_new_user", "refresh_token", "user_id"]);
    expect(first.body.is_new_user).toBe(true);
    expect(jwtPayload(first.body.access_token).sub).toBe(first.body.user_id);

    const user = await server.request(`/users/${first.body.user_id}`, { as: project.server });
    expect(user.body).toMatchObject({ primary_email: email, primary_email_verified: true });
    expect(user.body.oauth_providers).toEqual([{ id: "apple", account_id: sub, email }]);

    // Another bundle id of the project; Apple's "true" string for email_verified.
    const again = await signIn(await idToken({ sub, email, aud: "com.example.ios.other", email_verified: "true" }));
    expect(again.status, again.text).toBe(200);
    expect(again.body).toMatchObject({ is_new_user: false, user_id: first.body.user_id });
    expect(again.body.refresh_token).not.toBe(first.body.refresh_token);
  });

  it("refuses tokens that are not Apple's for this app and still valid: INVALID_ID_TOKEN", async () => {
    const refused = [
      "not-a-jwt",
      await idToken({}, strangerKey),
      await idToken({ aud: "com.someone.else" }),
      await idToken({ iss: "https://evil.example.com" }),
      await idToken({ expiresInSeconds: -60 }),
    ];
    for (const token of refused) expectKnownError(await signIn(token), "INVALID_ID_TOKEN", 400);
  });

  it("a token expired by the server's clock is refused", async () => {
    const token = await idToken({ expiresInSeconds: 300 });
    await server.clock.ahead(10 * 60 * 1000, async () => expectKnownError(await signIn(token), "INVALID_ID_TOKEN", 400));
  });

  it("a project without Apple, or without bundle ids: OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED", async () => {
    const withoutApple = await createProject(server, undefined, { oauth_providers: [{ id: "google", type: "shared" }] });
    expectKnownError(await signIn(await idToken(), withoutApple.client), "OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED", 400);
    const { apple_bundle_ids: _none, ...webOnly } = APPLE_PROVIDER;
    const withoutBundles = await createProject(server, undefined, { oauth_providers: [webOnly] });
    expectKnownError(await signIn(await idToken(), withoutBundles.client), "OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED", 400);
  });

  it("sign-up closed: SIGN_UP_NOT_ENABLED for a new Apple account, a server may still create one", async () => {
    const closed = await createProject(server, undefined, { oauth_providers: [APPLE_PROVIDER] });
    await patchProjectConfig(server, closed, { sign_up_enabled: false });
    expectKnownError(await signIn(await idToken(), closed.client), "SIGN_UP_NOT_ENABLED", 400);
    const byServer = await signIn(await idToken(), closed.server);
    expect(byServer.status, byServer.text).toBe(200);
  });

  it("a missing id_token is a SCHEMA_ERROR; the key set is fetched once and kept", async () => {
    const res = await server.request("/auth/oauth/callback/apple/native", { method: "POST", as: project.client, body: {} });
    expectKnownError(res, "SCHEMA_ERROR", 400);
    const before = jwks.received.length;
    expect((await signIn(await idToken())).status).toBe(200);
    expect(jwks.received.length).toBe(before);
  });
});
