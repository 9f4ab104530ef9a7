/**
 * Building blocks for the team-invitation suites: projects whose users get a
 * personal team at sign-up (as its creator, with team_admin), users with a
 * verified address, and invitations read back from the mail that carried
 * them.
 */
import { and, eq } from "drizzle-orm";
import type { ParsedMail } from "mailparser";
import { expect } from "vitest";
import { teamMembers, teamPermissionGrants } from "../src/db/schema/index.ts";
import { PASSWORD, createProject, patchProjectConfig, uniqueEmail, type EndUser, type Project } from "./fixtures.ts";
import type { Auth, TestServer } from "./harness.ts";
import { CALLBACK_URL, createMailingTestServer, linkIn, type MailingServer } from "./mail-fixtures.ts";

export interface TeamUser extends EndUser {
  /** The personal team the user created at sign-up. */
  teamId: string;
}

/** A project that gives every new user a personal team. */
export async function teamProject(server: TestServer, config: Record<string, unknown> = {}): Promise<Project> {
  const project = await createProject(server);
  await patchProjectConfig(server, project, { create_team_on_sign_up: true, ...config });
  return project;
}

/**
 * What the accept suites start from (in beforeAll): a mailing test server, two team projects (`other` for
 * what must not cross from one to the other) and an inviter in `project`. The mailing server is closed again
 * when the rest cannot be made.
 */
export async function acceptWorld(): Promise<{
  mailing: MailingServer;
  server: TestServer;
  project: Project;
  other: Project;
  inviter: TeamUser;
}> {
  const mailing = await createMailingTestServer();
  try {
    const server = mailing.server;
    const [project, other] = await Promise.all([teamProject(server), teamProject(server)]);
    return { mailing, server, project, other, inviter: await newUser(server, project) };
  } catch (error) {
    await mailing.close();
    throw error;
  }
}

/**
 * A signed-in user made by the server, `verified` or not (their primary
 * address), with a team of their own they created and selected (a server's
 * `POST /users` makes none, so it is made here as sign-up would).
 */
export async function newUser(
  server: TestServer,
  project: Project,
  options: { email?: string; verified?: boolean } = {},
): Promise<TeamUser> {
  const email = options.email ?? uniqueEmail();
  const created = await server.request("/users", {
    method: "POST",
    as: project.server,
    body: { primary_email: email, primary_email_verified: options.verified ?? true, primary_email_auth_enabled: true, password: PASSWORD },
  });
  expect(created.status, created.text).toBe(201);
  const team = await server.request("/teams", {
    method: "POST",
    as: project.server,
    body: { display_name: `${email}'s Team`, creator_user_id: created.body.id },
  });
  expect(team.status, team.text).toBe(201);
  const selected = await server.request(`/users/${created.body.id}`, {
    method: "PATCH",
    as: project.server,
    body: { selected_team_id: team.body.id },
  });
  expect(selected.status, selected.text).toBe(200);
  const session = await server.request("/auth/sessions", { method: "POST", as: project.server, body: { user_id: created.body.id } });
  expect(session.status, session.text).toBe(200);
  return {
    email,
    userId: created.body.id,
    accessToken: session.body.access_token,
    refreshToken: session.body.refresh_token,
    as: { ...project.client, accessToken: session.body.access_token },
    teamId: team.body.id,
  };
}

export function sendInvitation(server: TestServer, as: Auth, teamId: string, email: string, callbackUrl = CALLBACK_URL) {
  return server.request("/team-invitations/send-code", { method: "POST", as, body: { team_id: teamId, email, callback_url: callbackUrl } });
}

export interface SentInvitation {
  id: string;
  code: string;
  mail: ParsedMail;
}

/** Sends an invitation and reads its code from the mail that arrives at the SMTP peer. */
export async function invite(mailing: MailingServer, as: Auth, teamId: string, email = uniqueEmail("invitee")): Promise<SentInvitation> {
  const res = await sendInvitation(mailing.server, as, teamId, email);
  expect(res.status, res.text).toBe(200);
  expect(Object.keys(res.body).sort()).toEqual(["id", "success"]);
  expect(res.body.success).toBe(true);
  const mail = await mailing.mailTo(email);
  return { id: res.body.id, code: linkIn(mail).code, mail };
}

export function acceptInvitation(server: TestServer, as: Auth, code: string) {
  return server.request("/team-invitations/accept", { method: "POST", as, body: { code } });
}

export function listByTeam(server: TestServer, as: Auth, teamId: string) {
  return server.request("/team-invitations", { as, query: { team_id: teamId } });
}

export function listByUser(server: TestServer, as: Auth, userId = "me") {
  return server.request("/team-invitations", { as, query: { user_id: userId } });
}

export function revokeInvitation(server: TestServer, as: Auth, teamId: string, id: string) {
  return server.request(`/team-invitations/${id}`, { method: "DELETE", as, query: { team_id: teamId } });
}

/** The permission ids granted directly to a member, sorted. */
export async function directGrants(server: TestServer, teamId: string, userId: string): Promise<string[]> {
  const rows = await server.instance.services.db
    .select({ id: teamPermissionGrants.permissionId })
    .from(teamPermissionGrants)
    .where(and(eq(teamPermissionGrants.teamId, teamId), eq(teamPermissionGrants.userId, userId)));
  return rows.map((r) => r.id).sort();
}

/** Accepts an invitation by its id, for `userId` (`me`: the caller's user). */
export function acceptById(server: TestServer, as: Auth, id: string, userId = "me") {
  return server.request(`/team-invitations/${id}/accept`, { method: "POST", as, query: { user_id: userId } });
}

/** The user ids of a team's members, sorted. */
export async function memberIds(server: TestServer, teamId: string): Promise<string[]> {
  const rows = await server.instance.services.db.select({ id: teamMembers.userId }).from(teamMembers).where(eq(teamMembers.teamId, teamId));
  return rows.map((r) => r.id).sort();
}

/** Marks the user restricted by an administrator, as the project's server may. */
export async function restrictByAdmin(server: TestServer, project: Project, userId: string): Promise<void> {
  const res = await server.request(`/users/${userId}`, { method: "PATCH", as: project.server, body: { restricted_by_admin: true } });
  expect(res.status, res.text).toBe(200);
}

/** Another flow's code for the user: the one mailed to verify their primary address, read from the mail. */
export async function emailVerificationCode(mailing: MailingServer, user: TeamUser): Promise<string> {
  const sent = await mailing.server.request("/contact-channels/send-verification-code", {
    method: "POST",
    as: user.as,
    body: { email: user.email, callback_url: CALLBACK_URL },
  });
  expect(sent.status, sent.text).toBe(200);
  return linkIn(await mailing.mailTo(user.email)).code;
}
