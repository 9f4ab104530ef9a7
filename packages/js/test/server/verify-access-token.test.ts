/**
 * The README's way to check a request without a call to Latchkey ("Protecting
 * your own backend"), done exactly as written there: jose's
 * createRemoteJWKSet on the project's JWKS of a real server, then jwtVerify
 * with the project's issuer and audience.
 */
import { createRemoteJWKSet, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestServer, freePort } from "../../../server/test/harness.ts";
import { clientAppOf, createSdkProject, type SdkProject } from "./fixtures.ts";
import { PASSWORD, uniqueEmail, type TestServer } from "./support.ts";

let server: TestServer;
let LATCHKEY_URL: string;
let project: SdkProject;
let PROJECT_ID: string;
let jwks: ReturnType<typeof createRemoteJWKSet>;

// As in the README, with the test server's URL and project.
async function verifiedUserId(accessToken: string): Promise<string> {
  const { payload } = await jwtVerify(accessToken, jwks, {
    issuer: `${LATCHKEY_URL}/api/v1/projects/${PROJECT_ID}`,
    audience: PROJECT_ID,
  });
  return payload.sub!;
}

beforeAll(async () => {
  // The issuer is the server's own URL (its apiUrl), so it listens where it says it is.
  const port = await freePort();
  server = await createTestServer({ apiUrl: `http://127.0.0.1:${port}` });
  LATCHKEY_URL = await server.listen(port);
  project = await createSdkProject(LATCHKEY_URL);
  PROJECT_ID = project.id;
  jwks = createRemoteJWKSet(new URL(`${LATCHKEY_URL}/api/v1/projects/${PROJECT_ID}/.well-known/jwks.json`));
});
afterAll(() => server?.close());

async function signedUpToken(p: Pick<SdkProject, "id" | "publishableClientKey"> = project) {
  const app = clientAppOf(LATCHKEY_URL, p);
  expect((await app.signUpWithCredential({ email: uniqueEmail("jwks"), password: PASSWORD, noRedirect: true })).status).toBe("ok");
  const user = await app.getUser({ or: "throw" });
  return { id: user.id, accessToken: (await app.getAccessToken())! };
}

describe("verifying an access token against the project's JWKS", () => {
  it("gives the user's id for a token the project issued", async () => {
    const { id, accessToken } = await signedUpToken();
    expect(await verifiedUserId(accessToken)).toBe(id);
  });

  it("refuses a forged token: claims changed, signature kept", async () => {
    const { accessToken } = await signedUpToken();
    const [header, payload, signature] = accessToken.split(".");
    const claims = JSON.parse(Buffer.from(payload!, "base64url").toString()) as Record<string, unknown>;
    const forged = `${header}.${Buffer.from(JSON.stringify({ ...claims, sub: "someone-else" })).toString("base64url")}.${signature}`;
    await expect(verifiedUserId(forged)).rejects.toThrow(/signature verification failed/);
  });

  it("refuses another project's token", async () => {
    const other = await createSdkProject(LATCHKEY_URL);
    const { accessToken } = await signedUpToken(other);
    await expect(verifiedUserId(accessToken)).rejects.toThrow();
  });

  it("refuses an anonymous user's token (signed by keys this key set leaves out)", async () => {
    const app = clientAppOf(LATCHKEY_URL, project);
    await app.getUser({ or: "anonymous" });
    await expect(verifiedUserId((await app.getAccessToken())!)).rejects.toThrow(/no applicable key found|matching key/i);
  });

  it("refuses an expired token", async () => {
    const { accessToken } = await signedUpToken();
    const { exp } = JSON.parse(Buffer.from(accessToken.split(".")[1]!, "base64url").toString()) as { exp: number };
    await expect(
      jwtVerify(accessToken, jwks, {
        issuer: `${LATCHKEY_URL}/api/v1/projects/${PROJECT_ID}`,
        audience: PROJECT_ID,
        currentDate: new Date((exp + 1) * 1000),
      }),
    ).rejects.toThrow(/"exp" claim timestamp check failed/);
  });
});
