/** Anonymous users: sign-up, being treated as signed out, and upgrading in place. */
import { afterAll, beforeAll, expect, it } from "vitest";
import { PASSWORD, uniqueEmail } from "./fixtures.ts";
import { createTestServer, expectKnownError, type TestServer } from "./harness.ts";

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer();
});
afterAll(() => server.close());

async function anonymousUser() {
  const res = await server.request("/auth/anonymous/sign-up", { method: "POST", as: server.internal.client });
  expect(res.status, res.text).toBe(200);
  expect(Object.keys(res.body).sort()).toEqual(["access_token", "refresh_token", "user_id"]);
  return res.body as { access_token: string; refresh_token: string; user_id: string };
}

it("creates an anonymous user with a placeholder personal team", async () => {
  const anon = await anonymousUser();
  const me = await server.request("/users/me", {
    as: { ...server.internal.client, accessToken: anon.access_token, allowAnonymous: true },
  });
  expect(me.status, me.text).toBe(200);
  expect(me.body.is_anonymous).toBe(true);
  expect(me.body.primary_email).toBeNull();
  expect(me.body.restricted_reason).toEqual({ type: "anonymous" });
  expect(me.body.selected_team.display_name).toBe("Personal Team");
});

it("refuses the anonymous token unless the request allows anonymous users", async () => {
  const anon = await anonymousUser();
  const res = await server.request("/users/me", { as: { ...server.internal.client, accessToken: anon.access_token } });
  expectKnownError(res, "ANONYMOUS_AUTHENTICATION_NOT_ALLOWED", 401);
});

it("upgrades the anonymous user in place on sign-up, renaming the placeholder team", async () => {
  const anon = await anonymousUser();
  const email = uniqueEmail("upgrade");
  const signUp = await server.request("/auth/password/sign-up", {
    method: "POST",
    as: { ...server.internal.client, accessToken: anon.access_token, allowAnonymous: true },
    body: { email, password: PASSWORD },
  });
  expect(signUp.status, signUp.text).toBe(200);
  expect(signUp.body.user_id).toBe(anon.user_id);
  const me = await server.request("/users/me", { as: { ...server.internal.client, accessToken: signUp.body.access_token } });
  expect(me.body.is_anonymous).toBe(false);
  expect(me.body.primary_email).toBe(email);
  expect(me.body.has_password).toBe(true);
  expect(me.body.selected_team.display_name).toBe(`${email}'s Team`);
  const signIn = await server.request("/auth/password/sign-in", {
    method: "POST",
    as: server.internal.client,
    body: { email, password: PASSWORD },
  });
  expect(signIn.body.user_id).toBe(anon.user_id);
});

it("leaves anonymous users out of server listings unless asked", async () => {
  const anon = await anonymousUser();
  const without = await server.request("/users", { as: server.internal.server });
  expect(without.body.items.map((u: { id: string }) => u.id)).not.toContain(anon.user_id);
  const withAnon = await server.request("/users", { as: server.internal.server, query: { include_anonymous: true } });
  expect(withAnon.body.items.map((u: { id: string }) => u.id)).toContain(anon.user_id);
});
