/**
 * An access token names, as its issuer, the public address of the server that signed it (LATCHKEY_API_URL).
 * Replicas share their signing keys through the database, so a replica started with another address signs
 * tokens the others can verify but must refuse: the answer stays UNPARSABLE_ACCESS_TOKEN, which clients answer
 * by refreshing and retrying, and its message names both addresses, so the misconfiguration shows.
 */
import { StackClientApp } from "@stackframe/js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { AccessTokens } from "../src/domain/tokens/access-token.ts";
import { createProject, jwtPayload, signUpUser, type EndUser, type Project } from "./fixtures.ts";
import { createTestServer, expectKnownError, type TestServer } from "./harness.ts";

const onPostgres = process.env.LATCHKEY_TEST_DB === "postgres";
const OTHER_API_URL = "https://old-address.example.com";

function otherApiUrlMessage(received: string, expected: string): string {
  return `The access token was issued for another API URL: ${received}, not this server's ${expected}. Every replica must share one LATCHKEY_API_URL; refresh the token and try again.`;
}

/** The access token `tokens` signs for the session of `accessToken` (a token of the same keys). */
function reissued(tokens: AccessTokens, accessToken: string): string {
  const claims = jwtPayload(accessToken);
  return tokens.issue({
    userId: claims.sub,
    projectId: claims.project_id,
    branchId: claims.branch_id,
    sessionId: claims.refresh_token_id,
    displayName: claims.name,
    primaryEmail: claims.email,
    primaryEmailVerified: claims.email_verified,
    selectedTeamId: claims.selected_team_id,
    signedUpAt: new Date(claims.signed_up_at * 1000),
    isAnonymous: claims.is_anonymous,
    restrictedReason: claims.restricted_reason,
    requiresTotpMfa: claims.requires_totp_mfa,
  });
}

/** The paths (under /api/v1) the SDK requested while `fn` ran. */
async function sdkPaths<T>(fn: () => Promise<T>): Promise<{ result: T; paths: string[] }> {
  const spy = vi.spyOn(globalThis, "fetch");
  try {
    const result = await fn();
    const paths = spy.mock.calls.map(([input]) =>
      new URL(input instanceof Request ? input.url : String(input)).pathname.replace(/^\/api\/v1/, ""),
    );
    return { result, paths };
  } finally {
    spy.mockRestore();
  }
}

describe("a token of this server's keys, issued under another API URL", () => {
  let server: TestServer;
  let baseUrl: string;
  let project: Project;
  let user: EndUser;
  let foreign: string;
  beforeAll(async () => {
    server = await createTestServer();
    baseUrl = await server.listen();
    project = await createProject(server);
    user = await signUpUser(server, project);
    const { keys, clock } = server.instance.services;
    foreign = reissued(new AccessTokens(keys, OTHER_API_URL, server.config.accessTokenExpirationMillis, clock), user.accessToken);
  });
  afterAll(() => server?.close());

  it("is UNPARSABLE_ACCESS_TOKEN whose message names the token's API URL and this server's", async () => {
    expect(jwtPayload(foreign).iss).toBe(`${OTHER_API_URL}/api/v1/projects/${project.id}`);
    const res = await server.request("/users/me", { as: { ...user.as, accessToken: foreign } });
    expectKnownError(res, "UNPARSABLE_ACCESS_TOKEN", 401);
    // The catalogue's shape: a code and a message, no details.
    expect(res.body).toEqual({ code: "UNPARSABLE_ACCESS_TOKEN", error: otherApiUrlMessage(OTHER_API_URL, server.config.apiUrl) });
    // The token this server issued itself is still good.
    expect((await server.request("/users/me", { as: user.as })).status).toBe(200);
  });

  it("a token that is not this server's at all keeps the plain message", async () => {
    const [header, payload] = foreign.split(".");
    const res = await server.request("/users/me", { as: { ...user.as, accessToken: `${header}.${payload}.${"A".repeat(86)}` } });
    expectKnownError(res, "UNPARSABLE_ACCESS_TOKEN", 401);
    expect(res.body.error).toBe("The access token is not a valid token.");
  });

  it("the official SDK holding such a token refreshes it and retries, as for any token it cannot use", async () => {
    const app = new StackClientApp({
      projectId: project.id,
      publishableClientKey: project.client.publishableClientKey!,
      baseUrl,
      tokenStore: { accessToken: foreign, refreshToken: user.refreshToken },
      redirectMethod: "none",
    });
    const { result, paths } = await sdkPaths(() => app.getUser({ or: "throw" }));
    expect(result.id).toBe(user.userId);
    expect(paths).toEqual(["/users/me", "/auth/oauth/token", "/users/me"]);
  });
});

// Two servers on one database need PostgreSQL: an embedded database belongs to one process.
describe.runIf(onPostgres)("two replicas on one database with different LATCHKEY_API_URL", () => {
  let a: TestServer;
  let b: TestServer;
  let baseUrlOfA: string;
  let project: Project;
  beforeAll(async () => {
    a = await createTestServer();
    b = await createTestServer({ apiUrl: "https://b.example.com" }, { replicaOf: a });
    baseUrlOfA = await a.listen();
    project = await createProject(a);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it("each refuses the other's tokens, naming both addresses; each takes its own", async () => {
    const fromA = await signUpUser(a, project);
    const onB = await b.request("/users/me", { as: fromA.as });
    expectKnownError(onB, "UNPARSABLE_ACCESS_TOKEN", 401);
    expect(onB.body.error).toBe(otherApiUrlMessage(a.config.apiUrl, "https://b.example.com"));
    expect((await a.request("/users/me", { as: fromA.as })).status).toBe(200);

    const fromB = await signUpUser(b, project);
    expect(jwtPayload(fromB.accessToken).iss).toBe(`https://b.example.com/api/v1/projects/${project.id}`);
    const onA = await a.request("/users/me", { as: fromB.as });
    expectKnownError(onA, "UNPARSABLE_ACCESS_TOKEN", 401);
    expect(onA.body.error).toBe(otherApiUrlMessage("https://b.example.com", a.config.apiUrl));
    expect((await b.request("/users/me", { as: fromB.as })).status).toBe(200);
  });

  it("the official SDK, sent to the other replica with its token, refreshes there and goes on", async () => {
    const fromB = await signUpUser(b, project);
    const app = new StackClientApp({
      projectId: project.id,
      publishableClientKey: project.client.publishableClientKey!,
      baseUrl: baseUrlOfA,
      tokenStore: { accessToken: fromB.accessToken, refreshToken: fromB.refreshToken },
      redirectMethod: "none",
    });
    const { result, paths } = await sdkPaths(() => app.getUser({ or: "throw" }));
    expect(result.id).toBe(fromB.userId);
    expect(paths).toEqual(["/users/me", "/auth/oauth/token", "/users/me"]);
    const { accessToken } = await result.currentSession.getTokens();
    expect(jwtPayload(accessToken!).iss).toBe(`${a.config.apiUrl}/api/v1/projects/${project.id}`);
  });
});
