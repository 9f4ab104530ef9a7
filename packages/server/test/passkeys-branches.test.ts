/**
 * Passkeys and branches. Every project has one branch, "main", so a request
 * naming another (x-stack-branch-id) is refused before it reaches passkeys
 * (BRANCH_DOES_NOT_EXIST). The rows carry their branch all the same, and
 * every passkey query is scoped by it: a passkey or a challenge stored for
 * another branch is not found on main.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { passkeys, verificationCodes } from "../src/db/schema/index.ts";
import { sha256Hex } from "../src/lib/secrets.ts";
import { serverWithProject, signUpUser, type Project } from "./fixtures.ts";
import { expectKnownError, type TestResponse, type TestServer } from "./harness.ts";
import {
  initiateAuthentication,
  initiateRegistration,
  listPasskeys,
  LOCAL_ORIGIN,
  registerPasskey,
  signInWithPasskey,
  SoftwareAuthenticator,
  submitRegistration,
  submitSignIn,
} from "./passkey-fixtures.ts";

let server: TestServer;
let project: Project;

beforeAll(async () => ({ server, project } = await serverWithProject({ project: { passkey_enabled: true } })));
afterAll(() => server?.close());

const db = () => server.instance.services.db;
const OTHER_BRANCH = { "x-stack-branch-id": "dev" };

function expectNoSuchBranch(res: TestResponse): void {
  expectKnownError(res, "BRANCH_DOES_NOT_EXIST", 400);
  expect(res.body.details).toEqual({ branch_id: "dev" });
}

describe("another branch", () => {
  it("every passkey endpoint refuses it with BRANCH_DOES_NOT_EXIST, and nothing changes", async () => {
    const user = await signUpUser(server, project);
    const authenticator = new SoftwareAuthenticator();
    await registerPasskey(server, user, authenticator);
    const [passkey] = await listPasskeys(server, user.as);
    const registration = await initiateRegistration(server, user.as);
    const credential = new SoftwareAuthenticator().register(registration.options, LOCAL_ORIGIN);
    const authentication = await initiateAuthentication(server, project.client);
    const answer = authenticator.authenticate(authentication.options, LOCAL_ORIGIN);
    const post = (path: string, as = user.as, body: unknown = {}) =>
      server.request(path, { method: "POST", as, body, headers: OTHER_BRANCH });

    const answers = [
      await post("/auth/passkey/initiate-passkey-registration"),
      await post("/auth/passkey/initiate-passkey-authentication", project.client),
      await post("/auth/passkey/register", user.as, { credential, code: registration.code }),
      await post("/auth/passkey/sign-in", project.client, { authentication_response: answer, code: authentication.code }),
      await server.request("/passkeys", { as: user.as, query: { user_id: "me" }, headers: OTHER_BRANCH }),
      await server.request(`/passkeys/me/${passkey.id}`, {
        method: "PATCH",
        as: user.as,
        body: { display_name: "Renamed" },
        headers: OTHER_BRANCH,
      }),
      await server.request(`/passkeys/me/${passkey.id}`, { method: "DELETE", as: user.as, headers: OTHER_BRANCH }),
      await server.request("/users/me", { method: "PATCH", as: user.as, body: { passkey_auth_enabled: false }, headers: OTHER_BRANCH }),
    ];
    for (const res of answers) expectNoSuchBranch(res);

    expect(await listPasskeys(server, user.as)).toEqual([passkey]);
    // Both codes are still unused on main.
    expect((await submitRegistration(server, user.as, credential, registration.code)).status).toBe(200);
    const signIn = await submitSignIn(server, project.client, answer, authentication.code);
    expect(signIn.status, signIn.text).toBe(200);
    expect(signIn.body.user_id).toBe(user.userId);
  });

  it("a passkey or a challenge stored for another branch is not found on main", async () => {
    const user = await signUpUser(server, project);
    const authenticator = new SoftwareAuthenticator();
    const credentialId = await registerPasskey(server, user, authenticator);
    const [passkey] = await listPasskeys(server, user.as);
    await db()
      .update(passkeys)
      .set({ branchId: "dev" })
      .where(and(eq(passkeys.projectId, project.id), eq(passkeys.credentialId, credentialId)));

    const signIn = await signInWithPasskey(server, project, authenticator);
    expectKnownError(signIn, "PASSKEY_AUTHENTICATION_FAILED", 400);
    expect(signIn.body.error).toMatch(/Passkey not found/);
    expect(await listPasskeys(server, user.as)).toEqual([]);
    const removed = await server.request(`/passkeys/me/${passkey.id}`, { method: "DELETE", as: user.as });
    expect(removed.status, removed.text).toBe(404);

    const { options, code } = await initiateAuthentication(server, project.client);
    await db()
      .update(verificationCodes)
      .set({ branchId: "dev" })
      .where(and(eq(verificationCodes.projectId, project.id), eq(verificationCodes.codeHash, sha256Hex(code))));
    const moved = await submitSignIn(server, project.client, authenticator.authenticate(options, LOCAL_ORIGIN), code);
    expectKnownError(moved, "VERIFICATION_CODE_NOT_FOUND", 404);
  });
});
