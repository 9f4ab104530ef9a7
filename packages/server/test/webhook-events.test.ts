/**
 * The events webhooks will be sent (events/domain-events.ts: WEBHOOK_EVENT_TYPES),
 * per write through the API: exactly the sequence each change committed to
 * outbox_events, with its data, and nothing for a change that rolled back.
 */
import { OAUTH_PROVIDER_IDS } from "@latchkey/shared";
import { and, asc, eq, gt, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { outboxEvents } from "../src/db/schema/index.ts";
import { WEBHOOK_EVENT_TYPES } from "../src/events/domain-events.ts";
import { PASSWORD, createProject, sessionIdOf, signUpUser, uniqueEmail, type Project } from "./fixtures.ts";
import { expectKnownError, type Auth, type TestServer } from "./harness.ts";
import { CALLBACK_URL, createMailingTestServer, linkIn, warmRenderer, type MailingServer } from "./mail-fixtures.ts";
import { API_URL, signInWithProvider, startDevProviderProcess, type DevProviderProcess, type OAuthTestbed } from "./oauth-fixtures.ts";
import { SoftwareAuthenticator, registerPasskey, signInWithPasskey } from "./passkey-fixtures.ts";
import { acceptInvitation, invite } from "./team-invitation-fixtures.ts";

let provider: DevProviderProcess;
let mailing: MailingServer;
let server: TestServer;
/** Every sign-in method on, no personal teams. */
let project: Project;
/** The same, and a personal team for every user who signs up. */
let personal: Project;

const CONFIG = {
  magic_link_enabled: true,
  passkey_enabled: true,
  allow_user_api_keys: true,
  allow_team_api_keys: true,
  oauth_providers: [{ id: "github", type: "shared" }],
};

beforeAll(async () => {
  // The renderer loads meanwhile, so the first test that mails a code does not spend its time budget on it.
  [provider] = await Promise.all([startDevProviderProcess(API_URL), warmRenderer()]);
  mailing = await createMailingTestServer({
    apiUrl: API_URL,
    oauthMockUrl: provider.url,
    sharedOAuthCredentials: Object.fromEntries(OAUTH_PROVIDER_IDS.map((id) => [id, { kind: "mock" as const }])),
  });
  server = mailing.server;
  project = await createProject(server, undefined, CONFIG);
  personal = await createProject(server, project.owner, { ...CONFIG, create_team_on_sign_up: true });
});
afterAll(async () => {
  await mailing?.close();
  await provider?.close();
});

type Written = { type: string; data: unknown };

async function lastOutboxId(): Promise<number> {
  const [row] = await server.instance.services.db.select({ id: sql<number>`coalesce(max(${outboxEvents.id}), 0)::int` }).from(outboxEvents);
  return Number(row!.id);
}

/** The webhook events of `p` committed after `since`, oldest first. */
async function webhookEventsSince(p: Pick<Project, "id">, since: number): Promise<Written[]> {
  const rows = await server.instance.services.db
    .select({ type: outboxEvents.type, data: outboxEvents.payload })
    .from(outboxEvents)
    .where(and(gt(outboxEvents.id, since), eq(outboxEvents.projectId, p.id), inArray(outboxEvents.type, [...WEBHOOK_EVENT_TYPES])))
    .orderBy(asc(outboxEvents.id));
  return rows;
}

/** Runs `write`; returns what it answered and the webhook events of `p` it committed. */
async function committed<T>(p: Pick<Project, "id">, write: () => Promise<T>): Promise<{ result: T; events: Written[] }> {
  const since = await lastOutboxId();
  const result = await write();
  return { result, events: await webhookEventsSince(p, since) };
}

async function serverUser(p: Project, body: Record<string, unknown> = {}): Promise<string> {
  const res = await server.request("/users", { method: "POST", as: p.server, body });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

async function serverTeam(p: Project, body: Record<string, unknown> = {}): Promise<string> {
  const res = await server.request("/teams", { method: "POST", as: p.server, body: { display_name: "A team", ...body } });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

async function join(p: Project, teamId: string, userId: string): Promise<void> {
  const res = await server.request(`/team-memberships/${teamId}/${userId}`, { method: "POST", as: p.server, body: {} });
  expect(res.status, res.text).toBe(201);
}

async function mailedCode(email: string, subject?: RegExp): Promise<string> {
  return linkIn(await mailing.mailTo(email, subject)).code;
}

describe("a fresh project", () => {
  it("a server's POST /users sends exactly one event: user.created", async () => {
    const fresh = await createProject(server, project.owner);
    const { result: id, events } = await committed(fresh, () => serverUser(fresh, { primary_email: uniqueEmail(), password: PASSWORD }));
    expect(events).toEqual([{ type: "user.created", data: { id } }]);
  });

  it("a server's POST /teams without a creator sends exactly one event: team.created", async () => {
    const fresh = await createProject(server, project.owner);
    const { result: id, events } = await committed(fresh, () => serverTeam(fresh));
    expect(events).toEqual([{ type: "team.created", data: { id, creator_user_id: null } }]);
  });
});

describe("users", () => {
  it("PATCH /users/{id} and PATCH /users/me send user.updated; setting a password also ends the sessions", async () => {
    const user = await signUpUser(server, project);
    const patched = await committed(project, () =>
      server.request(`/users/${user.userId}`, { method: "PATCH", as: project.server, body: { display_name: "Ada" } }),
    );
    expect(patched.result.status, patched.result.text).toBe(200);
    expect(patched.events).toEqual([{ type: "user.updated", data: { id: user.userId } }]);

    const own = await committed(project, () =>
      server.request("/users/me", { method: "PATCH", as: user.as, body: { display_name: "Ada L." } }),
    );
    expect(own.result.status, own.result.text).toBe(200);
    expect(own.events).toEqual([{ type: "user.updated", data: { id: user.userId } }]);

    const password = await committed(project, () =>
      server.request(`/users/${user.userId}`, { method: "PATCH", as: project.server, body: { password: "another long password" } }),
    );
    expect(password.result.status, password.result.text).toBe(200);
    expect(password.events).toEqual([
      { type: "user.updated", data: { id: user.userId } },
      { type: "session.revoked", data: { id: sessionIdOf(user.accessToken), user_id: user.userId } },
    ]);
  });

  it("a refused PATCH sends nothing", async () => {
    const user = await signUpUser(server, project);
    const { result, events } = await committed(project, () =>
      server.request(`/users/${user.userId}`, {
        method: "PATCH",
        as: project.server,
        body: { display_name: "Never", selected_team_id: crypto.randomUUID() },
      }),
    );
    expectKnownError(result, "TEAM_NOT_FOUND", 404);
    expect(events).toEqual([]);
  });

  it("DELETE /users/{id} sends user.deleted with the user's teams, then team_membership.deleted for each", async () => {
    const userId = await serverUser(project);
    const first = await serverTeam(project);
    const second = await serverTeam(project);
    await join(project, first, userId);
    await join(project, second, userId);
    const { result, events } = await committed(project, () => server.request(`/users/${userId}`, { method: "DELETE", as: project.server }));
    expect(result.status, result.text).toBe(200);
    expect(events).toEqual([
      { type: "user.deleted", data: { id: userId, teams: [{ id: first }, { id: second }] } },
      { type: "team_membership.deleted", data: { team_id: first, user_id: userId } },
      { type: "team_membership.deleted", data: { team_id: second, user_id: userId } },
    ]);
  });
});

describe("sign-ups", () => {
  it("a password sign-up sends user.created and session.created; with personal teams, team.created between them", async () => {
    const plain = await committed(project, () => signUpUser(server, project));
    expect(plain.events).toEqual([
      { type: "user.created", data: { id: plain.result.userId } },
      { type: "session.created", data: { id: sessionIdOf(plain.result.accessToken), user_id: plain.result.userId } },
    ]);

    const withTeam = await committed(personal, () => signUpUser(server, personal));
    const me = await server.request("/users/me", { as: withTeam.result.as });
    const teamId = me.body.selected_team_id as string;
    expect(teamId).toEqual(expect.any(String));
    expect(withTeam.events).toEqual([
      { type: "user.created", data: { id: withTeam.result.userId } },
      { type: "team.created", data: { id: teamId, creator_user_id: withTeam.result.userId } },
      { type: "session.created", data: { id: sessionIdOf(withTeam.result.accessToken), user_id: withTeam.result.userId } },
    ]);
  });

  it("a sign-up refused for a taken e-mail rolls back, and sends nothing", async () => {
    const taken = await signUpUser(server, personal);
    const { result, events } = await committed(personal, () =>
      server.request("/auth/password/sign-up", { method: "POST", as: personal.client, body: { email: taken.email, password: PASSWORD } }),
    );
    expectKnownError(result, "USER_EMAIL_ALREADY_EXISTS", 409);
    expect(events).toEqual([]);

    const byServer = await committed(personal, () =>
      server.request("/users", {
        method: "POST",
        as: personal.server,
        body: { primary_email: taken.email, primary_email_auth_enabled: true },
      }),
    );
    expectKnownError(byServer.result, "USER_EMAIL_ALREADY_EXISTS", 409);
    expect(byServer.events).toEqual([]);
  });

  it("a one-time code signs up with user.created; an existing user only gets a session", async () => {
    const email = uniqueEmail("otp");
    const sent = await server.request("/auth/otp/send-sign-in-code", {
      method: "POST",
      as: project.client,
      body: { email, callback_url: CALLBACK_URL },
    });
    expect(sent.status, sent.text).toBe(200);
    const code = await mailedCode(email);
    const { result, events } = await committed(project, () =>
      server.request("/auth/otp/sign-in", { method: "POST", as: project.client, body: { code } }),
    );
    expect(result.status, result.text).toBe(200);
    expect(events).toEqual([
      { type: "user.created", data: { id: result.body.user_id } },
      { type: "session.created", data: { id: sessionIdOf(result.body.access_token), user_id: result.body.user_id } },
    ]);

    // A user whose address is verified signs in with a code: a session, and nothing about the user.
    const existing = await signUpUser(server, project);
    const verified = await server.request(`/users/${existing.userId}`, {
      method: "PATCH",
      as: project.server,
      body: { primary_email_verified: true },
    });
    expect(verified.status, verified.text).toBe(200);
    const again = await server.request("/auth/otp/send-sign-in-code", {
      method: "POST",
      as: project.client,
      body: { email: existing.email, callback_url: CALLBACK_URL },
    });
    expect(again.status, again.text).toBe(200);
    const existingCode = await mailedCode(existing.email);
    const signedIn = await committed(project, () =>
      server.request("/auth/otp/sign-in", { method: "POST", as: project.client, body: { code: existingCode } }),
    );
    expect(signedIn.result.status, signedIn.result.text).toBe(200);
    expect(signedIn.events).toEqual([
      { type: "session.created", data: { id: sessionIdOf(signedIn.result.body.access_token), user_id: existing.userId } },
    ]);
  });

  it("an OAuth sign-up sends user.created (and session.created on the token exchange)", async () => {
    const testbed: OAuthTestbed = { server, provider, close: async () => undefined };
    const { result, events } = await committed(project, () => signInWithProvider(testbed, project, uniqueEmail("oauth")));
    expect(result.status, result.text).toBe(200);
    const userId = (await server.request("/users/me", { as: { ...project.client, accessToken: result.body.access_token } })).body.id;
    expect(events).toEqual([
      { type: "user.created", data: { id: userId } },
      { type: "session.created", data: { id: sessionIdOf(result.body.access_token), user_id: userId } },
    ]);
  });

  it("a passkey registered sends user.updated (passkey_auth_enabled); signing in with it, session.created", async () => {
    const user = await signUpUser(server, project);
    const authenticator = new SoftwareAuthenticator();
    const registered = await committed(project, () => registerPasskey(server, user, authenticator));
    expect(registered.events).toEqual([{ type: "user.updated", data: { id: user.userId } }]);
    const second = await committed(project, () => registerPasskey(server, user, new SoftwareAuthenticator()));
    expect(second.events).toEqual([]);

    const { result, events } = await committed(project, () => signInWithPasskey(server, project, authenticator));
    expect(result.status, result.text).toBe(200);
    expect(events).toEqual([{ type: "session.created", data: { id: sessionIdOf(result.body.access_token), user_id: user.userId } }]);
  });
});

describe("anonymous users", () => {
  async function anonymous(): Promise<{ userId: string; teamId: string; as: Auth; events: Written[] }> {
    const { result, events } = await committed(personal, () =>
      server.request("/auth/anonymous/sign-up", { method: "POST", as: personal.client }),
    );
    expect(result.status, result.text).toBe(200);
    const as: Auth = { ...personal.client, accessToken: result.body.access_token, allowAnonymous: true };
    const me = await server.request("/users/me", { as });
    return { userId: result.body.user_id, teamId: me.body.selected_team_id, as, events };
  }

  it("an anonymous sign-up sends user.created, team.created and session.created", async () => {
    const anon = await anonymous();
    expect(anon.events.map((e) => e.type)).toEqual(["user.created", "team.created", "session.created"]);
    expect(anon.events.slice(0, 2)).toEqual([
      { type: "user.created", data: { id: anon.userId } },
      { type: "team.created", data: { id: anon.teamId, creator_user_id: anon.userId } },
    ]);
  });

  it("an upgrade by password sends one user.updated, team.updated for the renamed team, and session.created", async () => {
    const anon = await anonymous();
    const { result, events } = await committed(personal, () =>
      server.request("/auth/password/sign-up", {
        method: "POST",
        as: anon.as,
        body: { email: uniqueEmail("upgrade"), password: PASSWORD },
      }),
    );
    expect(result.status, result.text).toBe(200);
    expect(events).toEqual([
      { type: "user.updated", data: { id: anon.userId } },
      { type: "team.updated", data: { id: anon.teamId } },
      { type: "session.created", data: { id: sessionIdOf(result.body.access_token), user_id: anon.userId } },
    ]);
  });

  it("an upgrade by one-time code sends one user.updated too; a team the user renamed is not updated", async () => {
    const anon = await anonymous();
    const renamed = await server.request(`/teams/${anon.teamId}`, { method: "PATCH", as: personal.server, body: { display_name: "Mine" } });
    expect(renamed.status, renamed.text).toBe(200);
    const email = uniqueEmail("anon-otp");
    const sent = await server.request("/auth/otp/send-sign-in-code", {
      method: "POST",
      as: anon.as,
      body: { email, callback_url: CALLBACK_URL },
    });
    expect(sent.status, sent.text).toBe(200);
    const code = await mailedCode(email);
    const { result, events } = await committed(personal, () =>
      server.request("/auth/otp/sign-in", { method: "POST", as: anon.as, body: { code } }),
    );
    expect(result.status, result.text).toBe(200);
    expect(result.body.user_id).toBe(anon.userId);
    expect(events).toEqual([
      { type: "user.updated", data: { id: anon.userId } },
      { type: "session.created", data: { id: sessionIdOf(result.body.access_token), user_id: anon.userId } },
    ]);
  });
});

describe("teams, members and permissions", () => {
  it("POST /teams with a creator sends team.created only: the creator's membership and permissions send nothing", async () => {
    const creator = await serverUser(project);
    const { result: id, events } = await committed(project, () => serverTeam(project, { creator_user_id: creator }));
    expect(events).toEqual([{ type: "team.created", data: { id, creator_user_id: creator } }]);
  });

  it("a membership sends team_membership.created, then team_permission.created per default permission; leaving, team_membership.deleted", async () => {
    const teamId = await serverTeam(project);
    const userId = await serverUser(project);
    const added = await committed(project, () => join(project, teamId, userId));
    expect(added.events).toEqual([
      { type: "team_membership.created", data: { team_id: teamId, user_id: userId } },
      { type: "team_permission.created", data: { id: "team_member", team_id: teamId, user_id: userId } },
    ]);
    const again = await committed(project, () =>
      server.request(`/team-memberships/${teamId}/${userId}`, { method: "POST", as: project.server, body: {} }),
    );
    expectKnownError(again.result, "TEAM_MEMBERSHIP_ALREADY_EXISTS", 409);
    expect(again.events).toEqual([]);
    const removed = await committed(project, () =>
      server.request(`/team-memberships/${teamId}/${userId}`, { method: "DELETE", as: project.server }),
    );
    expect(removed.result.status, removed.result.text).toBe(200);
    expect(removed.events).toEqual([{ type: "team_membership.deleted", data: { team_id: teamId, user_id: userId } }]);
  });

  it("explicit grants and revokes send permission events", async () => {
    const teamId = await serverTeam(project);
    const userId = await serverUser(project);
    await join(project, teamId, userId);
    const defined = await server.request("/project-permission-definitions", {
      method: "POST",
      as: project.admin,
      body: { id: "reports_read", contained_permission_ids: [] },
    });
    expect(defined.status, defined.text).toBe(201);
    const calls: [string, "POST" | "DELETE", Written][] = [
      [
        `/team-permissions/${teamId}/${userId}/$invite_members`,
        "POST",
        { type: "team_permission.created", data: { id: "$invite_members", team_id: teamId, user_id: userId } },
      ],
      [
        `/team-permissions/${teamId}/${userId}/$invite_members`,
        "DELETE",
        { type: "team_permission.deleted", data: { id: "$invite_members", team_id: teamId, user_id: userId } },
      ],
      [
        `/project-permissions/${userId}/reports_read`,
        "POST",
        { type: "project_permission.created", data: { id: "reports_read", user_id: userId } },
      ],
      [
        `/project-permissions/${userId}/reports_read`,
        "DELETE",
        { type: "project_permission.deleted", data: { id: "reports_read", user_id: userId } },
      ],
    ];
    for (const [path, method, event] of calls) {
      const { result, events } = await committed(project, () =>
        server.request(path.replace("$", "%24"), { method, as: project.server, ...(method === "POST" ? { body: {} } : {}) }),
      );
      expect(result.status, `${method} ${path}: ${result.text}`).toBeLessThan(300);
      expect(events).toEqual([event]);
    }
    const unknown = await committed(project, () =>
      server.request(`/project-permissions/${userId}/reports_read`, { method: "DELETE", as: project.server }),
    );
    expect(unknown.result.status).toBeGreaterThanOrEqual(400);
    expect(unknown.events).toEqual([]);
  });

  it("PATCH /teams sends team.updated; DELETE /teams sends team.deleted and no member events", async () => {
    const creator = await serverUser(project);
    const teamId = await serverTeam(project, { creator_user_id: creator });
    await join(project, teamId, await serverUser(project));
    const patched = await committed(project, () =>
      server.request(`/teams/${teamId}`, { method: "PATCH", as: project.server, body: { display_name: "Renamed" } }),
    );
    expect(patched.events).toEqual([{ type: "team.updated", data: { id: teamId } }]);
    const deleted = await committed(project, () => server.request(`/teams/${teamId}`, { method: "DELETE", as: project.server }));
    expect(deleted.result.status, deleted.result.text).toBe(200);
    expect(deleted.events).toEqual([{ type: "team.deleted", data: { id: teamId } }]);
  });

  it("an invitation sends team_invitation.created; accepting it, team_invitation.accepted, the membership and its permissions", async () => {
    const inviter = await signUpUser(server, project);
    const teamId = await serverTeam(project, { creator_user_id: inviter.userId });
    const invitee = await signUpUser(server, project);
    const sent = await committed(project, () => invite(mailing, inviter.as, teamId, invitee.email));
    expect(sent.events).toEqual([{ type: "team_invitation.created", data: { id: sent.result.id, team_id: teamId } }]);
    const { result, events } = await committed(project, () => acceptInvitation(server, invitee.as, sent.result.code));
    expect(result.status, result.text).toBe(200);
    expect(events).toEqual([
      { type: "team_invitation.accepted", data: { team_id: teamId, user_id: invitee.userId } },
      { type: "team_membership.created", data: { team_id: teamId, user_id: invitee.userId } },
      { type: "team_permission.created", data: { id: "team_member", team_id: teamId, user_id: invitee.userId } },
    ]);

    // A member already: the invitation is spent, and nothing joins.
    const twice = await invite(mailing, inviter.as, teamId, invitee.email);
    const member = await committed(project, () => acceptInvitation(server, invitee.as, twice.code));
    expect(member.result.status, member.result.text).toBe(200);
    expect(member.events).toEqual([{ type: "team_invitation.accepted", data: { team_id: teamId, user_id: invitee.userId } }]);
  });
});

describe("sessions and contact channels", () => {
  it("a server's session sends session.created; revoking one, and signing out, session.revoked", async () => {
    const user = await signUpUser(server, project);
    const created = await committed(project, () =>
      server.request("/auth/sessions", { method: "POST", as: project.server, body: { user_id: user.userId } }),
    );
    expect(created.result.status, created.result.text).toBe(200);
    const sessionId = sessionIdOf(created.result.body.access_token);
    expect(created.events).toEqual([{ type: "session.created", data: { id: sessionId, user_id: user.userId } }]);

    const revoked = await committed(project, () =>
      server.request(`/auth/sessions/${sessionId}`, { method: "DELETE", as: project.server, query: { user_id: user.userId } }),
    );
    expect(revoked.result.status, revoked.result.text).toBe(200);
    expect(revoked.events).toEqual([{ type: "session.revoked", data: { id: sessionId, user_id: user.userId } }]);

    const signedOut = await committed(project, () => server.request("/auth/sessions/current", { method: "DELETE", as: user.as }));
    expect(signedOut.result.status, signedOut.result.text).toBe(200);
    expect(signedOut.events).toEqual([{ type: "session.revoked", data: { id: sessionIdOf(user.accessToken), user_id: user.userId } }]);
  });

  it("a verification code sends contact_channel.verified", async () => {
    const user = await signUpUser(server, project);
    const sent = await server.request("/contact-channels/send-verification-code", {
      method: "POST",
      as: user.as,
      body: { email: user.email, callback_url: CALLBACK_URL },
    });
    expect(sent.status, sent.text).toBe(200);
    const code = await mailedCode(user.email);
    const channels = await server.request("/contact-channels", { as: project.server, query: { user_id: user.userId } });
    const { result, events } = await committed(project, () =>
      server.request("/contact-channels/verify", { method: "POST", as: user.as, body: { code } }),
    );
    expect(result.status, result.text).toBe(200);
    expect(events).toEqual([{ type: "contact_channel.verified", data: { id: channels.body.items[0].id, user_id: user.userId } }]);
  });

  it("a password reset verifies the address and revokes every session", async () => {
    const user = await signUpUser(server, project);
    const sent = await server.request("/auth/password/send-reset-code", {
      method: "POST",
      as: project.client,
      body: { email: user.email, callback_url: CALLBACK_URL },
    });
    expect(sent.status, sent.text).toBe(200);
    const code = await mailedCode(user.email, /reset your password/i);
    const channels = await server.request("/contact-channels", { as: project.server, query: { user_id: user.userId } });
    const { result, events } = await committed(project, () =>
      server.request("/auth/password/reset", { method: "POST", as: project.client, body: { code, password: "a brand new password" } }),
    );
    expect(result.status, result.text).toBe(200);
    expect(events).toEqual([
      { type: "contact_channel.verified", data: { id: channels.body.items[0].id, user_id: user.userId } },
      { type: "session.revoked", data: { id: sessionIdOf(user.accessToken), user_id: user.userId } },
    ]);
  });
});

describe("API keys", () => {
  async function keyOf(kind: "user" | "team", owner: Record<string, string>) {
    return committed(project, () =>
      server.request(`/${kind}-api-keys`, {
        method: "POST",
        as: project.server,
        body: { ...owner, description: "k", expires_at_millis: null },
      }),
    );
  }

  it("creating a key sends api_key.created with its owner; revoking it, api_key.revoked once; a new description, nothing", async () => {
    const user = await signUpUser(server, project);
    const teamId = await serverTeam(project, { creator_user_id: user.userId });
    const userKey = await keyOf("user", { user_id: user.userId });
    expect(userKey.result.status, userKey.result.text).toBe(200);
    expect(userKey.events).toEqual([{ type: "api_key.created", data: { id: userKey.result.body.id, user_id: user.userId } }]);
    const teamKey = await keyOf("team", { team_id: teamId });
    expect(teamKey.result.status, teamKey.result.text).toBe(200);
    expect(teamKey.events).toEqual([{ type: "api_key.created", data: { id: teamKey.result.body.id, team_id: teamId } }]);

    const patch = (kind: string, id: string, body: Record<string, unknown>) =>
      committed(project, () =>
        server.request(`/${kind}-api-keys/${id}`, {
          method: "PATCH",
          as: project.server,
          query: kind === "team" ? { team_id: teamId } : { user_id: user.userId },
          body,
        }),
      );
    const described = await patch("user", userKey.result.body.id, { description: "renamed" });
    expect(described.result.status, described.result.text).toBe(200);
    expect(described.events).toEqual([]);
    for (const [kind, key, owner] of [
      ["user", userKey.result.body.id, { user_id: user.userId }],
      ["team", teamKey.result.body.id, { team_id: teamId }],
    ] as const) {
      const revoked = await patch(kind, key, { revoked: true });
      expect(revoked.result.status, revoked.result.text).toBe(200);
      expect(revoked.events).toEqual([{ type: "api_key.revoked", data: { id: key, ...owner } }]);
      const again = await patch(kind, key, { revoked: true });
      expect(again.result.status, again.result.text).toBe(200);
      expect(again.events).toEqual([]);
    }
  });

  it("a key for an unknown owner is refused and sends nothing", async () => {
    const { result, events } = await keyOf("user", { user_id: crypto.randomUUID() });
    expectKnownError(result, "USER_NOT_FOUND", 404);
    expect(events).toEqual([]);
  });
});
