/**
 * Passkey ceremonies (see @latchkey/shared api/passkeys.ts): registration
 * for a signed-in user, discoverable sign-in, the origin and relying-party
 * rules, single-use challenges and signature counters. A software
 * authenticator (passkey-authenticator.ts) makes real keys and signatures,
 * so @simplewebauthn/server's verification runs for real.
 */
import { PASSKEY_CHALLENGE_EXPIRATION_MILLIS, PASSKEY_RP_ID_SENTINEL } from "@latchkey/shared";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { passkeys } from "../src/db/schema/index.ts";
import { createProject, jwtPayload, serverWithProject, signUpUser, type Project } from "./fixtures.ts";
import { expectKnownError, type TestResponse, type TestServer } from "./harness.ts";
import { mfaSignIn, signUpTotpUser, totpCode } from "./mfa-fixtures.ts";
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

async function storedPasskey(credentialId: string) {
  const [row] = await db().select().from(passkeys).where(eq(passkeys.credentialId, credentialId));
  return row;
}

async function sessionCount(userId: string): Promise<number> {
  const res = await server.request("/auth/sessions", { as: project.server, query: { user_id: userId } });
  expect(res.status, res.text).toBe(200);
  return res.body.items.length;
}

function expectFailure(res: TestResponse, code: "PASSKEY_REGISTRATION_FAILED" | "PASSKEY_AUTHENTICATION_FAILED", message: RegExp): void {
  expectKnownError(res, code, 400);
  expect(res.body.error).toMatch(message);
}

describe("passkeys off", () => {
  it("every ceremony endpoint answers PASSKEY_AUTHENTICATION_NOT_ENABLED", async () => {
    const off = await createProject(server);
    const user = await signUpUser(server, off);
    const fakeCode = "0".repeat(45);
    const answers = [
      await server.request("/auth/passkey/initiate-passkey-registration", { method: "POST", as: user.as, body: {} }),
      await server.request("/auth/passkey/initiate-passkey-authentication", { method: "POST", as: off.client }),
      await submitRegistration(server, user.as, new SoftwareAuthenticator().register(fakeOptions(), LOCAL_ORIGIN), fakeCode),
      await submitSignIn(server, off.client, fakeAssertion(), fakeCode),
    ];
    for (const res of answers) {
      expectKnownError(res, "PASSKEY_AUTHENTICATION_NOT_ENABLED", 400);
      expect(res.body.error).toBe("Passkey authentication is not enabled for this project.");
    }
  });
});

describe("registration", () => {
  it("offers options for the signed-in user with the relying-party placeholder", async () => {
    const user = await signUpUser(server, project);
    const { options, code } = await initiateRegistration(server, user.as);
    expect(code).toMatch(/^[0-9a-hjkmnp-tv-z]{45}$/);
    expect(options).toMatchObject({
      rp: { id: PASSKEY_RP_ID_SENTINEL, name: "Test project" },
      user: { id: Buffer.from(user.userId).toString("base64url"), name: user.email, displayName: user.email },
      timeout: 60000,
      attestation: "none",
      authenticatorSelection: { residentKey: "required", requireResidentKey: true, userVerification: "preferred" },
      excludeCredentials: [],
    });
    expect((options as any).pubKeyCredParams.map((p: { alg: number }) => p.alg)).toEqual([-8, -7, -257]);
    expect(options.challenge).toMatch(/^[A-Za-z0-9_-]{16,}$/);
    expect("hints" in options).toBe(false);
  });

  it("needs a signed-in user", async () => {
    const res = await server.request("/auth/passkey/initiate-passkey-registration", { method: "POST", as: project.client, body: {} });
    expectKnownError(res, "SCHEMA_ERROR", 400);
    expect(res.body.error).toContain("auth.user must be defined");
  });

  it("stores several passkeys per user, each excluded from the next registration", async () => {
    const user = await signUpUser(server, project);
    const authenticator = new SoftwareAuthenticator();
    const first = await registerPasskey(server, user, authenticator);
    const second = await registerPasskey(server, user, new SoftwareAuthenticator());
    const { options } = await initiateRegistration(server, user.as);
    expect(options.excludeCredentials!.map((c) => c.id).sort()).toEqual([first, second].sort());
    const listed = await listPasskeys(server, user.as);
    expect(listed.map((p) => p.id).length).toBe(2);
    expect(listed[0]).toMatchObject({ user_id: user.userId, device_type: "singleDevice", backed_up: false, last_used_at_millis: null });
    expect(listed[0].display_name).toMatch(/^Passkey added \d{4}-\d{2}-\d{2}$/);
    const me = await server.request("/users/me", { as: user.as });
    expect(me.body.passkey_auth_enabled).toBe(true);
    const stored = await storedPasskey(first);
    expect(stored).toMatchObject({ projectId: project.id, userId: user.userId, counter: 0, transports: ["internal"] });
    expect(stored!.userHandle).toBe(Buffer.from(user.userId).toString("base64url"));
  });

  it("refuses an answer from an origin the project does not trust, and the code stays usable", async () => {
    const user = await signUpUser(server, project);
    const { options, code } = await initiateRegistration(server, user.as);
    const authenticator = new SoftwareAuthenticator();
    const wrong = await submitRegistration(server, user.as, authenticator.register(options, "https://evil.example.org"), code);
    expectFailure(wrong, "PASSKEY_REGISTRATION_FAILED", /origin "https:\/\/evil\.example\.org" is not allowed/);
    expect(await listPasskeys(server, user.as)).toEqual([]);
    const right = await submitRegistration(server, user.as, authenticator.register(options, LOCAL_ORIGIN), code);
    expect(right.status, right.text).toBe(200);
  });

  it("refuses a passkey scoped to another relying party than the page's host", async () => {
    const user = await signUpUser(server, project);
    const { options, code } = await initiateRegistration(server, user.as);
    const credential = new SoftwareAuthenticator().register(options, LOCAL_ORIGIN, { rpId: "evil.example.org" });
    expectFailure(await submitRegistration(server, user.as, credential, code), "PASSKEY_REGISTRATION_FAILED", /RP ID/i);
  });

  it("refuses an answer to another challenge, a used code and another user's code", async () => {
    const user = await signUpUser(server, project);
    const other = await signUpUser(server, project);
    const { options, code } = await initiateRegistration(server, user.as);
    const authenticator = new SoftwareAuthenticator();
    const mismatch = await submitRegistration(
      server,
      user.as,
      authenticator.register(options, LOCAL_ORIGIN, { challenge: "b3RoZXI" }),
      code,
    );
    expectFailure(mismatch, "PASSKEY_REGISTRATION_FAILED", /another challenge/);
    const foreign = await submitRegistration(server, other.as, authenticator.register(options, LOCAL_ORIGIN), code);
    expectFailure(foreign, "PASSKEY_REGISTRATION_FAILED", /another user/);
    expect(await submitRegistration(server, user.as, authenticator.register(options, LOCAL_ORIGIN), code)).toMatchObject({ status: 200 });
    const again = await submitRegistration(server, user.as, authenticator.register(options, LOCAL_ORIGIN), code);
    expectKnownError(again, "VERIFICATION_CODE_ALREADY_USED", 409);
  });

  it("refuses registering the same credential twice", async () => {
    const user = await signUpUser(server, project);
    const authenticator = new SoftwareAuthenticator();
    await registerPasskey(server, user, authenticator);
    const { options, code } = await initiateRegistration(server, user.as);
    const again = authenticator.register(options, LOCAL_ORIGIN, { reuse: authenticator.credentials[0] });
    const res = await submitRegistration(server, user.as, again, code);
    expectFailure(res, "PASSKEY_REGISTRATION_FAILED", /already registered/);
    expect(await listPasskeys(server, user.as)).toHaveLength(1);
    // Nothing was spent: the code still takes a new passkey.
    expect((await submitRegistration(server, user.as, new SoftwareAuthenticator().register(options, LOCAL_ORIGIN), code)).status).toBe(200);
  });
});

describe("sign-in", () => {
  it("offers discoverable options with the relying-party placeholder", async () => {
    const { options, code } = await initiateAuthentication(server, project.client);
    expect(code).toHaveLength(45);
    expect(options).toMatchObject({ rpId: PASSKEY_RP_ID_SENTINEL, allowCredentials: [], userVerification: "preferred", timeout: 60000 });
  });

  it("signs the passkey's user in, with a session that works, and records the use", async () => {
    const user = await signUpUser(server, project);
    const authenticator = new SoftwareAuthenticator();
    const credentialId = await registerPasskey(server, user, authenticator);
    const res = await signInWithPasskey(server, project, authenticator);
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["access_token", "is_new_user", "refresh_token", "user_id"]);
    expect(res.body).toMatchObject({ user_id: user.userId, is_new_user: false });
    expect(jwtPayload(res.body.access_token).sub).toBe(user.userId);
    const me = await server.request("/users/me", { as: { ...project.client, accessToken: res.body.access_token } });
    expect(me.body.id).toBe(user.userId);
    expect((await storedPasskey(credentialId))!.counter).toBe(1);
    const [listed] = await listPasskeys(server, user.as);
    expect(listed.last_used_at_millis).toBeGreaterThan(Date.now() - 60_000);
  });

  it("works with each of a user's passkeys", async () => {
    const user = await signUpUser(server, project);
    const laptop = new SoftwareAuthenticator();
    const phone = new SoftwareAuthenticator();
    await registerPasskey(server, user, laptop);
    await registerPasskey(server, user, phone);
    for (const authenticator of [laptop, phone]) {
      const res = await signInWithPasskey(server, project, authenticator);
      expect(res.status, res.text).toBe(200);
      expect(res.body.user_id).toBe(user.userId);
    }
  });

  it("asks a user with two-factor on for their TOTP code", async () => {
    const user = await signUpTotpUser(server, project);
    const authenticator = new SoftwareAuthenticator();
    await registerPasskey(server, user, authenticator);
    const res = await signInWithPasskey(server, project, authenticator);
    expectKnownError(res, "MULTI_FACTOR_AUTHENTICATION_REQUIRED", 400);
    const done = await mfaSignIn(server, project, res.body.details.attempt_code, totpCode(user.secretBase64));
    expect(done.status, done.text).toBe(200);
    expect(done.body).toMatchObject({ user_id: user.userId, is_new_user: false });
  });

  it("refuses an untrusted origin without a session or a used passkey, and the code stays usable", async () => {
    const user = await signUpUser(server, project);
    const authenticator = new SoftwareAuthenticator();
    const credentialId = await registerPasskey(server, user, authenticator);
    const sessionsBefore = await sessionCount(user.userId);
    const { options, code } = await initiateAuthentication(server, project.client);
    const wrong = await submitSignIn(server, project.client, authenticator.authenticate(options, "https://evil.example.org"), code);
    expectFailure(wrong, "PASSKEY_AUTHENTICATION_FAILED", /origin "https:\/\/evil\.example\.org" is not allowed/);
    expect(await sessionCount(user.userId)).toBe(sessionsBefore);
    expect(await storedPasskey(credentialId)).toMatchObject({ counter: 0, lastUsedAt: null });
    const right = await submitSignIn(server, project.client, authenticator.authenticate(options, LOCAL_ORIGIN), code);
    expect(right.status, right.text).toBe(200);
  });

  it("refuses a signature over another relying-party id", async () => {
    const user = await signUpUser(server, project);
    const authenticator = new SoftwareAuthenticator();
    await registerPasskey(server, user, authenticator);
    const res = await signInWithPasskey(server, project, authenticator, LOCAL_ORIGIN, { rpId: "evil.example.org" });
    expectFailure(res, "PASSKEY_AUTHENTICATION_FAILED", /RP ID/i);
  });

  it("refuses an answer to another challenge, and a challenge used already", async () => {
    const user = await signUpUser(server, project);
    const authenticator = new SoftwareAuthenticator();
    await registerPasskey(server, user, authenticator);
    const first = await initiateAuthentication(server, project.client);
    const second = await initiateAuthentication(server, project.client);
    const crossed = await submitSignIn(server, project.client, authenticator.authenticate(first.options, LOCAL_ORIGIN), second.code);
    expectFailure(crossed, "PASSKEY_AUTHENTICATION_FAILED", /another challenge/);
    const answer = authenticator.authenticate(first.options, LOCAL_ORIGIN);
    expect((await submitSignIn(server, project.client, answer, first.code)).status).toBe(200);
    const replay = await submitSignIn(server, project.client, answer, first.code);
    expectKnownError(replay, "VERIFICATION_CODE_ALREADY_USED", 409);
  });

  it("refuses a challenge after 65 seconds", async () => {
    const user = await signUpUser(server, project);
    const authenticator = new SoftwareAuthenticator();
    await registerPasskey(server, user, authenticator);
    const { options, code } = await initiateAuthentication(server, project.client);
    const res = await server.clock.ahead(PASSKEY_CHALLENGE_EXPIRATION_MILLIS + 1000, () =>
      submitSignIn(server, project.client, authenticator.authenticate(options, LOCAL_ORIGIN), code),
    );
    expectKnownError(res, "VERIFICATION_CODE_EXPIRED", 400);
  });

  it("lets one of two concurrent sign-ins with one challenge through", async () => {
    const user = await signUpUser(server, project);
    const laptop = new SoftwareAuthenticator();
    const phone = new SoftwareAuthenticator();
    await registerPasskey(server, user, laptop);
    await registerPasskey(server, user, phone);
    const { options, code } = await initiateAuthentication(server, project.client);
    const answers = [laptop.authenticate(options, LOCAL_ORIGIN), phone.authenticate(options, LOCAL_ORIGIN)];
    const results = await Promise.all(answers.map((answer) => submitSignIn(server, project.client, answer, code)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expectKnownError(
      results.find((r) => r.status === 409)!,
      "VERIFICATION_CODE_ALREADY_USED",
      409,
    );
  });

  it("refuses a signature counter that does not move forward, and keeps the stored one", async () => {
    const user = await signUpUser(server, project);
    const authenticator = new SoftwareAuthenticator();
    const credentialId = await registerPasskey(server, user, authenticator);
    expect((await signInWithPasskey(server, project, authenticator, LOCAL_ORIGIN, { counter: 5 })).status).toBe(200);
    for (const counter of [5, 3]) {
      const res = await signInWithPasskey(server, project, authenticator, LOCAL_ORIGIN, { counter });
      expectFailure(res, "PASSKEY_AUTHENTICATION_FAILED", /counter did not increase.*cloned/);
    }
    expect((await storedPasskey(credentialId))!.counter).toBe(5);
    expect((await signInWithPasskey(server, project, authenticator, LOCAL_ORIGIN, { counter: 6 })).status).toBe(200);
  });

  it("accepts an authenticator that never counts (a counter of 0 throughout)", async () => {
    const user = await signUpUser(server, project);
    const authenticator = new SoftwareAuthenticator();
    await registerPasskey(server, user, authenticator);
    for (let i = 0; i < 2; i++) {
      expect((await signInWithPasskey(server, project, authenticator, LOCAL_ORIGIN, { counter: 0 })).status).toBe(200);
    }
  });

  it("refuses a credential the project does not know, or one of another project", async () => {
    const stranger = new SoftwareAuthenticator();
    stranger.register(fakeOptions(), LOCAL_ORIGIN);
    expectFailure(await signInWithPasskey(server, project, stranger), "PASSKEY_AUTHENTICATION_FAILED", /Passkey not found/);

    const elsewhere = await createProject(server, undefined, { passkey_enabled: true });
    const user = await signUpUser(server, elsewhere);
    const authenticator = new SoftwareAuthenticator();
    await registerPasskey(server, user, authenticator);
    expect((await signInWithPasskey(server, elsewhere, authenticator)).status).toBe(200);
    expectFailure(await signInWithPasskey(server, project, authenticator), "PASSKEY_AUTHENTICATION_FAILED", /Passkey not found/);
  });

  it("refuses an answer naming another user handle than the passkey's", async () => {
    const user = await signUpUser(server, project);
    const authenticator = new SoftwareAuthenticator();
    await registerPasskey(server, user, authenticator);
    const { options, code } = await initiateAuthentication(server, project.client);
    const answer = authenticator.authenticate(options, LOCAL_ORIGIN);
    answer.response.userHandle = Buffer.from("someone-else").toString("base64url");
    expectFailure(await submitSignIn(server, project.client, answer, code), "PASSKEY_AUTHENTICATION_FAILED", /another user/);
  });

  it("compares user handles as bytes: another encoding of the passkey's is accepted, an empty one counts as absent", async () => {
    const user = await signUpUser(server, project);
    const authenticator = new SoftwareAuthenticator();
    const credentialId = await registerPasskey(server, user, authenticator);
    // Handles made here (the user id's text) never need "-", "_" or padding; a handle from elsewhere may.
    const handle = Buffer.from([0xfb, 0xff, 0x01, 0xfe]);
    await db()
      .update(passkeys)
      .set({ userHandle: handle.toString("base64url") })
      .where(eq(passkeys.credentialId, credentialId));
    for (const userHandle of [handle.toString("base64url"), handle.toString("base64"), "-_8B_g==", "+/8B/g", "", undefined]) {
      const { options, code } = await initiateAuthentication(server, project.client);
      const answer = authenticator.authenticate(options, LOCAL_ORIGIN);
      answer.response.userHandle = userHandle as string;
      const res = await submitSignIn(server, project.client, answer, code);
      expect(res.status, `${userHandle}: ${res.text}`).toBe(200);
      expect(res.body.user_id).toBe(user.userId);
    }
    for (const userHandle of ["-_8B_w", "+/8B/g=", "-_8B_g!", Buffer.from("someone-else").toString("base64")]) {
      const { options, code } = await initiateAuthentication(server, project.client);
      const answer = authenticator.authenticate(options, LOCAL_ORIGIN);
      answer.response.userHandle = userHandle;
      expectFailure(await submitSignIn(server, project.client, answer, code), "PASSKEY_AUTHENTICATION_FAILED", /another user/);
    }
  });

  it("refuses a forged signature", async () => {
    const user = await signUpUser(server, project);
    const authenticator = new SoftwareAuthenticator();
    await registerPasskey(server, user, authenticator);
    const { options, code } = await initiateAuthentication(server, project.client);
    const answer = authenticator.authenticate(options, LOCAL_ORIGIN);
    const forger = new SoftwareAuthenticator();
    forger.register(fakeOptions(), LOCAL_ORIGIN);
    answer.response.signature = forger.authenticate(options, LOCAL_ORIGIN).response.signature;
    expectFailure(await submitSignIn(server, project.client, answer, code), "PASSKEY_AUTHENTICATION_FAILED", /could not be verified/);
  });
});

describe("trusted domains", () => {
  it("accepts pages on a trusted wildcard domain, and refuses others", async () => {
    const shop = await createProject(server, undefined, {
      passkey_enabled: true,
      allow_localhost: false,
      domains: [{ domain: "https://*.example.com", handler_path: "/handler" }],
    });
    const user = await signUpUser(server, shop);
    const authenticator = new SoftwareAuthenticator();
    await registerPasskey(server, user, authenticator, "https://shop.example.com");
    expect((await signInWithPasskey(server, shop, authenticator, "https://shop.example.com")).status).toBe(200);
    for (const origin of ["https://a.b.example.com", "http://shop.example.com", LOCAL_ORIGIN, "https://example.com"]) {
      const res = await signInWithPasskey(server, shop, authenticator, origin);
      expectFailure(res, "PASSKEY_AUTHENTICATION_FAILED", /is not allowed/);
      const { options, code } = await initiateRegistration(server, user.as);
      const registration = await submitRegistration(server, user.as, new SoftwareAuthenticator().register(options, origin), code);
      expectFailure(registration, "PASSKEY_REGISTRATION_FAILED", /is not allowed/);
    }
  });

  it("refuses localhost when the project does not allow it", async () => {
    const strict = await createProject(server, undefined, { passkey_enabled: true, allow_localhost: false });
    const user = await signUpUser(server, strict);
    const { options, code } = await initiateRegistration(server, user.as);
    const res = await submitRegistration(server, user.as, new SoftwareAuthenticator().register(options, LOCAL_ORIGIN), code);
    expectFailure(res, "PASSKEY_REGISTRATION_FAILED", /is not allowed/);
  });
});

function fakeOptions() {
  return {
    challenge: "Y2hhbGxlbmdl",
    rp: { id: PASSKEY_RP_ID_SENTINEL, name: "x" },
    user: { id: "dXNlcg", name: "x", displayName: "x" },
  };
}

function fakeAssertion() {
  const authenticator = new SoftwareAuthenticator();
  authenticator.register(fakeOptions(), LOCAL_ORIGIN);
  return authenticator.authenticate({ challenge: "Y2hhbGxlbmdl", rpId: PASSKEY_RP_ID_SENTINEL }, LOCAL_ORIGIN);
}
