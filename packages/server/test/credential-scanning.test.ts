/**
 * POST /integrations/credential-scanning/revoke: a scanner that found a key in
 * public revokes it without authentication; the owner (the user, or the team's
 * members) is told by e-mail; a public key is refused with
 * PUBLIC_API_KEY_CANNOT_BE_REVOKED; anything that is not a key is not found.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sentEmails } from "../src/db/schema/index.ts";
import { createProject, patchProjectConfig, signUpUser, type EndUser, type Project } from "./fixtures.ts";
import { createTestServer, expectKnownError, type TestServer } from "./harness.ts";
import { addMember, createTeam } from "./permission-fixtures.ts";

let server: TestServer;
let project: Project;
let alice: EndUser;
let bob: EndUser;

beforeAll(async () => {
  server = await createTestServer();
  project = await createProject(server);
  await patchProjectConfig(server, project, { allow_user_api_keys: true, allow_team_api_keys: true });
  [alice, bob] = await Promise.all([signUpUser(server, project), signUpUser(server, project)]);
});
afterAll(() => server.close());

const report = (apiKey: string) =>
  server.request("/integrations/credential-scanning/revoke", { method: "POST", body: { api_key: apiKey } });

async function key(kind: "user" | "team", owner: Record<string, string>, body: Record<string, unknown> = {}) {
  const res = await server.request(`/${kind}-api-keys`, {
    method: "POST",
    as: project.server,
    body: { ...owner, description: "leaky", expires_at_millis: null, ...body },
  });
  expect(res.status, res.text).toBe(200);
  return res.body as { id: string; value: string };
}

const mailsTo = async (email: string) =>
  (await server.instance.services.db.select().from(sentEmails).where(eq(sentEmails.projectId, project.id))).filter((m) =>
    m.to.includes(email),
  );

const check = (kind: "user" | "team", apiKey: string) =>
  server.request(`/${kind}-api-keys/check`, { method: "POST", as: project.server, body: { api_key: apiKey } });

describe("a secret key found in public", () => {
  it("is revoked without authentication, and its user is told once", async () => {
    const leaked = await key("user", { user_id: alice.userId });
    const res = await report(leaked.value);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ success: true });
    expectKnownError(await check("user", leaked.value), "API_KEY_REVOKED", 401);
    const mails = await mailsTo(alice.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.textBody).toContain(leaked.value.slice(-4));
    // Reported again: still revoked, nobody told twice.
    expect((await report(leaked.value)).status).toBe(200);
    expect(await mailsTo(alice.email)).toHaveLength(1);
  });

  it("a team's key: every member is told", async () => {
    const teamId = await createTeam(server, project.id, alice.userId);
    await addMember(server, project.id, teamId, bob.userId);
    const leaked = await key("team", { team_id: teamId });
    const before = (await mailsTo(bob.email)).length;
    expect((await report(leaked.value)).status).toBe(200);
    expectKnownError(await check("team", leaked.value), "API_KEY_REVOKED", 401);
    expect(await mailsTo(bob.email)).toHaveLength(before + 1);
  });
});

describe("refusals", () => {
  it("a public key: PUBLIC_API_KEY_CANNOT_BE_REVOKED, and it stays usable", async () => {
    const visible = await key("user", { user_id: bob.userId }, { is_public: true });
    expectKnownError(await report(visible.value), "PUBLIC_API_KEY_CANNOT_BE_REVOKED", 400);
    expect((await check("user", visible.value)).status).toBe(200);
  });

  it("not a key, a typo, or a forged secret: API_KEY_NOT_FOUND", async () => {
    const real = await key("user", { user_id: bob.userId });
    for (const value of ["", "sk_nothing", real.value.slice(0, -1) + (real.value.endsWith("0") ? "1" : "0")]) {
      expectKnownError(await report(value), "API_KEY_NOT_FOUND", 404);
    }
    expect((await check("user", real.value)).status).toBe(200);
  });
});
