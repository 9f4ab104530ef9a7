/**
 * STACK_ENABLE_HARDCODED_PASSKEY_CHALLENGE_FOR_TESTING: test suites that
 * replay recorded WebAuthn answers need every ceremony to use the challenge
 * "MOCK" (`TU9DSw`). Without it, and always for a project in production
 * mode, every ceremony draws its own.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configFromEnv } from "../src/config.ts";
import { createProject, signUpUser, type Project } from "./fixtures.ts";
import { createTestServer, type TestServer } from "./harness.ts";
import {
  initiateAuthentication,
  initiateRegistration,
  registerPasskey,
  signInWithPasskey,
  SoftwareAuthenticator,
} from "./passkey-fixtures.ts";

const PRODUCTION_ORIGIN = "https://app.example.com";

let server: TestServer;
let project: Project;

beforeAll(async () => {
  server = await createTestServer({ passkeyTestChallenge: true });
  project = await createProject(server, undefined, { passkey_enabled: true });
});
afterAll(() => server?.close());

describe("the fixed test challenge", () => {
  it("is off unless the variable says yes", () => {
    expect(configFromEnv({}).passkeyTestChallenge).toBe(false);
    expect(configFromEnv({ STACK_ENABLE_HARDCODED_PASSKEY_CHALLENGE_FOR_TESTING: "yes" }).passkeyTestChallenge).toBe(true);
  });

  it("is the challenge of both ceremonies, which still complete", async () => {
    const user = await signUpUser(server, project);
    expect((await initiateRegistration(server, user.as)).options.challenge).toBe("TU9DSw");
    expect((await initiateAuthentication(server, project.client)).options.challenge).toBe("TU9DSw");
    const authenticator = new SoftwareAuthenticator();
    await registerPasskey(server, user, authenticator);
    const res = await signInWithPasskey(server, project, authenticator);
    expect(res.status, res.text).toBe(200);
    expect(res.body.user_id).toBe(user.userId);
  });

  it("never applies to a project in production mode: its ceremonies draw their own challenges, and still complete", async () => {
    const production = await createProject(server, undefined, { passkey_enabled: true });
    const switched = await server.request("/internal/projects/current", {
      method: "PATCH",
      as: production.admin,
      body: {
        is_production_mode: true,
        config: { allow_localhost: false, domains: [{ domain: PRODUCTION_ORIGIN, handler_path: "/handler" }] },
      },
    });
    expect(switched.status, switched.text).toBe(200);
    expect(switched.body.is_production_mode).toBe(true);
    const user = await signUpUser(server, production);
    const registrations = [await initiateRegistration(server, user.as), await initiateRegistration(server, user.as)];
    const authentications = [
      await initiateAuthentication(server, production.client),
      await initiateAuthentication(server, production.client),
    ];
    const challenges = [...registrations, ...authentications].map(({ options }) => options.challenge);
    expect(challenges).not.toContain("TU9DSw");
    expect(new Set(challenges).size).toBe(4);
    for (const challenge of challenges) expect(Buffer.from(challenge, "base64url").length).toBeGreaterThanOrEqual(16);
    const authenticator = new SoftwareAuthenticator();
    await registerPasskey(server, user, authenticator, PRODUCTION_ORIGIN);
    const res = await signInWithPasskey(server, production, authenticator, PRODUCTION_ORIGIN);
    expect(res.status, res.text).toBe(200);
    expect(res.body.user_id).toBe(user.userId);
  });

  it("warns in the server's log", () => {
    expect(server.logs.some((line) => String(line.msg).includes("STACK_ENABLE_HARDCODED_PASSKEY_CHALLENGE_FOR_TESTING"))).toBe(true);
  });
});
