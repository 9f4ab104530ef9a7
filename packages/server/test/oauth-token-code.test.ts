/**
 * POST /auth/oauth/token with the authorization_code grant: the code from a
 * real sign-in through the development OpenID provider, checked for client,
 * PKCE verifier, redirect_uri, expiry and single use.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectPlainError, type Project } from "./fixtures.ts";
import { expectKnownError } from "./harness.ts";
import { createOAuthProject, exchangeCode, newPkce, signInToCode, startOAuthTestbed, type OAuthTestbed } from "./oauth-fixtures.ts";
import { uniqueEmail } from "./fixtures.ts";

let testbed: OAuthTestbed;
let project: Project;

beforeAll(async () => {
  testbed = await startOAuthTestbed();
  project = await createOAuthProject(testbed.server);
});
afterAll(() => testbed?.close());

const codeFor = () => signInToCode(testbed, project, uniqueEmail("code"));

describe("the authorization_code grant", () => {
  it("signs the user in once; the access token works", async () => {
    const { code, verifier } = await codeFor();
    const res = await exchangeCode(testbed.server, project, { code, verifier });
    expect(res.status, res.text).toBe(200);
    const me = await testbed.server.request("/users/me", { as: { ...project.client, accessToken: res.body.access_token } });
    expect(me.status, me.text).toBe(200);
    const refreshed = await testbed.server.request("/auth/sessions/current/refresh", {
      method: "POST",
      as: project.client,
      headers: { "x-stack-refresh-token": res.body.refresh_token },
    });
    expect(refreshed.status, refreshed.text).toBe(200);
  });

  it("takes a JSON body and HTTP Basic client credentials too", async () => {
    const { code, verifier } = await codeFor();
    const basic = Buffer.from(`${project.id}:${project.client.publishableClientKey}`).toString("base64");
    const res = await testbed.server.request("/auth/oauth/token", {
      method: "POST",
      headers: { authorization: `Basic ${basic}` },
      body: {
        grant_type: "authorization_code",
        code,
        code_verifier: verifier,
        redirect_uri: "http://localhost:3000/handler/oauth-callback",
      },
    });
    expect(res.status, res.text).toBe(200);
  });

  it("a used code: INVALID_AUTHORIZATION_CODE", async () => {
    const { code, verifier } = await codeFor();
    expect((await exchangeCode(testbed.server, project, { code, verifier })).status).toBe(200);
    expectKnownError(await exchangeCode(testbed.server, project, { code, verifier }), "INVALID_AUTHORIZATION_CODE", 400);
  });

  it("concurrent exchanges of one code: exactly one succeeds", async () => {
    const { code, verifier } = await codeFor();
    const results = await Promise.all(Array.from({ length: 4 }, () => exchangeCode(testbed.server, project, { code, verifier })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of results.filter((r) => r.status !== 200)) expectKnownError(r, "INVALID_AUTHORIZATION_CODE", 400);
  });

  it("a wrong or missing PKCE verifier: INVALID_AUTHORIZATION_CODE, and the code is not spent", async () => {
    const { code, verifier } = await codeFor();
    expectKnownError(
      await exchangeCode(testbed.server, project, { code, verifier: newPkce().verifier }),
      "INVALID_AUTHORIZATION_CODE",
      400,
    );
    expectKnownError(await exchangeCode(testbed.server, project, { code, verifier: "" }), "INVALID_AUTHORIZATION_CODE", 400);
    expect((await exchangeCode(testbed.server, project, { code, verifier })).status).toBe(200);
  });

  it("a redirect_uri other than the one the code was issued for: 400 in plain text, even a trusted one", async () => {
    const { code, verifier } = await codeFor();
    const res = await exchangeCode(testbed.server, project, { code, verifier, redirectUri: "http://localhost:3000/elsewhere" });
    expectPlainError(
      res,
      400,
      /^Invalid redirect URI\. Your redirect URI must be the same as the one used to get the authorization code\.$/,
    );
    expect((await exchangeCode(testbed.server, project, { code, verifier })).status).toBe(200);
  });

  it("an expired code (after 5 minutes): INVALID_AUTHORIZATION_CODE", async () => {
    const { code, verifier } = await codeFor();
    await testbed.server.clock.ahead(5 * 60 * 1000 + 1000, async () =>
      expectKnownError(await exchangeCode(testbed.server, project, { code, verifier }), "INVALID_AUTHORIZATION_CODE", 400),
    );
  });

  it("an unknown code, or none: INVALID_AUTHORIZATION_CODE", async () => {
    const verifier = newPkce().verifier;
    expectKnownError(await exchangeCode(testbed.server, project, { code: "0".repeat(45), verifier }), "INVALID_AUTHORIZATION_CODE", 400);
    expectKnownError(await exchangeCode(testbed.server, project, { code: "", verifier }), "INVALID_AUTHORIZATION_CODE", 400);
  });

  it("another project's code: INVALID_AUTHORIZATION_CODE; a wrong client secret: INVALID_OAUTH_CLIENT_ID_OR_SECRET", async () => {
    const { code, verifier } = await codeFor();
    const other = await createOAuthProject(testbed.server);
    expectKnownError(await exchangeCode(testbed.server, other, { code, verifier }), "INVALID_AUTHORIZATION_CODE", 400);
    const wrongKey = { ...project, client: { ...project.client, publishableClientKey: "pck_wrong" } };
    expectKnownError(await exchangeCode(testbed.server, wrongKey, { code, verifier }), "INVALID_OAUTH_CLIENT_ID_OR_SECRET", 400);
    expect((await exchangeCode(testbed.server, project, { code, verifier })).status).toBe(200);
  });

  it("a client id forcing a branch the project does not have: INVALID_OAUTH_CLIENT_ID_OR_SECRET naming it", async () => {
    const { code, verifier } = await codeFor();
    const res = await exchangeCode(testbed.server, { ...project, id: `${project.id}#dev` }, { code, verifier });
    expectKnownError(res, "INVALID_OAUTH_CLIENT_ID_OR_SECRET", 400);
    expect(res.body.details).toEqual({ client_id: `${project.id}#dev` });
    expect((await exchangeCode(testbed.server, project, { code, verifier })).status).toBe(200);
  });
});
