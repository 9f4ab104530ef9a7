/** The path a new operator walks: owner → project → end user → tokens → sign-out. */
import { afterAll, beforeAll, expect, it } from "vitest";
import { createProject, PASSWORD, signUpOwner, signUpUser } from "./fixtures.ts";
import { createTestServer, expectKnownError, type TestServer } from "./harness.ts";

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer();
});
afterAll(() => server.close());

it("owner sign-up → project → end-user sign-up → /users/me → refresh → sign-out", async () => {
  const owner = await signUpOwner(server);
  expect(owner.teamId).toMatch(/^[0-9a-f-]{36}$/);
  const project = await createProject(server, owner);

  const listed = await server.request("/internal/projects", {
    as: { ...server.internal.client, accessToken: owner.accessToken },
  });
  expect(listed.body.items.map((p: { id: string }) => p.id)).toEqual([project.id]);

  const user = await signUpUser(server, project);
  const me = await server.request("/users/me", { as: user.as });
  expect(me.status).toBe(200);
  expect(me.body.primary_email).toBe(user.email);
  expect(me.body.selected_team).toBeNull();

  const refreshed = await server.request("/auth/sessions/current/refresh", {
    method: "POST",
    as: project.client,
    headers: { "x-stack-refresh-token": user.refreshToken },
  });
  expect(refreshed.status, refreshed.text).toBe(200);
  const me2 = await server.request("/users/me", { as: { ...project.client, accessToken: refreshed.body.access_token } });
  expect(me2.body.id).toBe(user.userId);

  const signIn = await server.request("/auth/password/sign-in", {
    method: "POST",
    as: project.client,
    body: { email: user.email, password: PASSWORD },
  });
  expect(signIn.status).toBe(200);

  const out = await server.request("/auth/sessions/current", { method: "DELETE", as: user.as });
  expect(out.body).toEqual({ success: true });
  const after = await server.request("/auth/sessions/current/refresh", {
    method: "POST",
    as: project.client,
    headers: { "x-stack-refresh-token": user.refreshToken },
  });
  expectKnownError(after, "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED", 401);
});
