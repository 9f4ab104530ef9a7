/**
 * Concurrency: the database, not a read-then-write, decides races. Runs the
 * same on PGlite (one connection) and PostgreSQL (a pool).
 */
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contactChannels, users } from "../src/db/schema/index.ts";
import { createProject, PASSWORD, refreshWith, serverWithProject, sessionIdOf, signUpUser, uniqueEmail, type Project } from "./fixtures.ts";
import { expectKnownError, type TestServer } from "./harness.ts";

let server: TestServer;
let project: Project;

beforeAll(async () => ({ server, project } = await serverWithProject()));
afterAll(() => server?.close());

async function countUsers(projectId: string): Promise<number> {
  const [row] = await server.instance.services.db
    .select({ n: sql<number>`count(*)::int` })
    .from(users)
    .where(eq(users.projectId, projectId));
  return Number(row!.n);
}

describe("sign-up races", () => {
  it("20 concurrent sign-ups with one e-mail: exactly one wins, the rest USER_EMAIL_ALREADY_EXISTS", async () => {
    const p = await createProject(server);
    const email = uniqueEmail("race");
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        server.request("/auth/password/sign-up", {
          method: "POST",
          as: p.client,
          // Mixed case: the uniqueness is case-insensitive.
          body: { email: i % 3 === 0 ? email.toUpperCase() : email, password: PASSWORD },
        }),
      ),
    );
    const ok = results.filter((r) => r.status === 200);
    expect(ok, results.map((r) => `${r.status} ${r.text.slice(0, 80)}`).join("\n")).toHaveLength(1);
    for (const res of results.filter((r) => r.status !== 200)) {
      expectKnownError(res, "USER_EMAIL_ALREADY_EXISTS", 409);
    }
    // One user in the database: losers left no half-made user behind.
    expect(await countUsers(p.id)).toBe(1);
    const channels = await server.instance.services.db
      .select()
      .from(contactChannels)
      .where(and(eq(contactChannels.projectId, p.id), sql`lower(${contactChannels.value}) = ${email.toLowerCase()}`));
    expect(channels).toHaveLength(1);
    const list = await server.request("/users", { as: p.server });
    expect(list.body.items.map((u: { id: string }) => u.id)).toEqual([ok[0]!.body.user_id]);
    // The winner's tokens work.
    const me = await server.request("/users/me", { as: { ...p.client, accessToken: ok[0]!.body.access_token } });
    expect(me.body.id).toBe(ok[0]!.body.user_id);
  });

  it("64 concurrent sign-ups with distinct e-mails all succeed", async () => {
    const p = await createProject(server, undefined, { create_team_on_sign_up: true });
    const emails = Array.from({ length: 64 }, (_, i) => uniqueEmail(`bulk${i}`));
    const results = await Promise.all(
      emails.map((email) =>
        server.request("/auth/password/sign-up", { method: "POST", as: p.client, body: { email, password: PASSWORD } }),
      ),
    );
    const failures = results.filter((r) => r.status !== 200);
    expect(failures.map((r) => `${r.status} ${r.text.slice(0, 200)}`)).toEqual([]);
    expect(new Set(results.map((r) => r.body.user_id)).size).toBe(64);
    expect(await countUsers(p.id)).toBe(64);
    const list = await server.request("/users", { as: p.server });
    expect(list.body.items.map((u: { primary_email: string }) => u.primary_email).sort()).toEqual([...emails].sort());
    // Each got its own personal team.
    expect(new Set(list.body.items.map((u: { selected_team_id: string }) => u.selected_team_id)).size).toBe(64);
  });
});

describe("refresh races", () => {
  it("10 concurrent refreshes of one token all succeed", async () => {
    const user = await signUpUser(server, project);
    const results = await Promise.all(Array.from({ length: 10 }, () => refreshWith(server, project, user.refreshToken)));
    for (const res of results) {
      expect(res.status, res.text).toBe(200);
      const me = await server.request("/users/me", { as: { ...project.client, accessToken: res.body.access_token } });
      expect(me.body.id).toBe(user.userId);
    }
    // And the token still works afterwards.
    expect((await refreshWith(server, project, user.refreshToken)).status).toBe(200);
  });

  it("concurrent revoke and refresh leave the token dead", async () => {
    for (let round = 0; round < 5; round++) {
      const user = await signUpUser(server, project);
      const sessionId = sessionIdOf(user.accessToken);
      const results = await Promise.all([
        refreshWith(server, project, user.refreshToken),
        server.request(`/auth/sessions/${sessionId}`, { method: "DELETE", as: project.server }),
        refreshWith(server, project, user.refreshToken),
        round % 2
          ? server.request("/auth/sessions/current", { method: "DELETE", as: user.as })
          : refreshWith(server, project, user.refreshToken),
      ]);
      for (const res of results) expect(res.status, res.text).toBeLessThan(500);
      // At least one revocation went through.
      expect(results[1]!.status === 200 || results[3]!.status === 200).toBe(true);
      expectKnownError(await refreshWith(server, project, user.refreshToken), "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED", 401);
      const list = await server.request("/auth/sessions", { as: project.server, query: { user_id: user.userId } });
      expect(list.body.items).toEqual([]);
    }
  });

  it("concurrent user deletion and refresh leave no session behind", async () => {
    const user = await signUpUser(server, project);
    const results = await Promise.all([
      refreshWith(server, project, user.refreshToken),
      server.request(`/users/${user.userId}`, { method: "DELETE", as: project.server }),
      refreshWith(server, project, user.refreshToken),
    ]);
    for (const res of results) expect(res.status, res.text).toBeLessThan(500);
    expect(results[1]!.status).toBe(200);
    expectKnownError(await refreshWith(server, project, user.refreshToken), "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED", 401);
  });
});

describe("update races", () => {
  it("two users claiming one e-mail at once: one wins", async () => {
    const a = await signUpUser(server, project);
    const b = await signUpUser(server, project);
    const target = uniqueEmail("claimed");
    const [ra, rb] = await Promise.all([
      server.request("/users/me", { method: "PATCH", as: a.as, body: { primary_email: target } }),
      server.request("/users/me", { method: "PATCH", as: b.as, body: { primary_email: target } }),
    ]);
    const statuses = [ra.status, rb.status].sort();
    expect(statuses, `${ra.text}\n${rb.text}`).toEqual([200, 409]);
    const loser = ra.status === 409 ? ra : rb;
    expectKnownError(loser, "USER_EMAIL_ALREADY_EXISTS", 409);
    const owners = await server.request("/users", { as: project.server, query: { query: target } });
    expect(owners.body.items).toHaveLength(1);
  });
});
