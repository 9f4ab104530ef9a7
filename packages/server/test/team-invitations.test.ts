/**
 * Team invitations: sending (the mail at a real SMTP peer, in the project's
 * template and theme), listing by team and by user, revoking, and who may do
 * each, including users and servers of another project.
 */
import { DARK_EMAIL_THEME_ID, DEFAULT_EMAIL_TEMPLATE_IDS } from "@latchkey/shared";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { teams, verificationCodes } from "../src/db/schema/index.ts";
import {
  UNKNOWN_UUID,
  expectPlainError,
  expectSchemaErrorIncluding,
  patchProjectConfig,
  signUpUser,
  uniqueEmail,
  type Project,
} from "./fixtures.ts";
import { expectKnownError, type Auth, type TestServer } from "./harness.ts";
import { CALLBACK_URL, createMailingTestServer, linkIn, ownSmtpConfig, type MailingServer } from "./mail-fixtures.ts";
import {
  acceptInvitation,
  invite,
  listByTeam,
  listByUser,
  newUser,
  revokeInvitation,
  sendInvitation,
  teamProject,
  type TeamUser,
} from "./team-invitation-fixtures.ts";

const EVIL_CALLBACK = "https://evil.example.com/join";
const INVITATION_KEYS = ["expires_at_millis", "id", "recipient_email", "team_display_name", "team_id"];

let mailing: MailingServer;
let server: TestServer;
/** Users get a personal team; members joining by invitation get team_member. */
let project: Project;
/** Members joining by invitation get no permissions. */
let bare: Project;
let other: Project;
let admin: TeamUser;
/** A member of admin's team with team_member ($read_members, $invite_members). */
let member: TeamUser;
/** A member of bareAdmin's team without any permission. */
let powerless: TeamUser;
let bareAdmin: TeamUser;
let stranger: TeamUser;

const db = () => server.instance.services.db;

async function teamName(teamId: string): Promise<string> {
  const [row] = await db().select({ name: teams.displayName }).from(teams).where(eq(teams.id, teamId));
  return row!.name;
}

async function join(p: Project, inviter: Auth, teamId: string): Promise<TeamUser> {
  const user = await newUser(server, p);
  const { code } = await invite(mailing, inviter, teamId);
  const res = await acceptInvitation(server, user.as, code);
  expect(res.status, res.text).toBe(200);
  return user;
}

/** The project's own SMTP server (the same test peer), so its edited templates go out. */
const ownSmtp = () => ownSmtpConfig(mailing.smtp.port, { name: "Custom sender", email: "custom@example.com" });

function expire(id: string) {
  return db()
    .update(verificationCodes)
    .set({ expiresAt: new Date(Date.now() - 1000) })
    .where(eq(verificationCodes.id, id));
}

beforeAll(async () => {
  mailing = await createMailingTestServer();
  server = mailing.server;
  [project, bare, other] = await Promise.all([
    teamProject(server),
    teamProject(server, { team_member_default_permissions: [] }),
    teamProject(server),
  ]);
  [admin, bareAdmin, stranger] = await Promise.all([newUser(server, project), newUser(server, bare), newUser(server, project)]);
  [member, powerless] = await Promise.all([join(project, admin.as, admin.teamId), join(bare, bareAdmin.as, bareAdmin.teamId)]);
});
afterAll(() => mailing?.close());

describe("POST /team-invitations/send-code", () => {
  it("mails the address a link to the callback URL carrying the code, under a subject naming the team; answers the invitation's id", async () => {
    const email = uniqueEmail("invitee");
    const res = await sendInvitation(server, project.server, admin.teamId, email);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ success: true, id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    const mail = await mailing.mailTo(email);
    const name = await teamName(admin.teamId);
    expect(mail.subject).toBe(`You are invited to join ${name} on Test project`);
    expect(mail.text).toContain(`You have been invited to join the team ${name} on Test project.`);
    // The shared SMTP server sends the built-in template in the light theme.
    expect(mail.html).toContain("#e4e4e7");
    const { link } = linkIn(mail);
    expect(`${link.origin}${link.pathname}`).toBe(CALLBACK_URL);
    const listed = (await listByTeam(server, project.server, admin.teamId)).body.items;
    expect(listed.map((i: { id: string }) => i.id)).toContain(res.body.id);
  });

  it("keeps the callback URL's own query parameters", async () => {
    const email = uniqueEmail("query");
    const res = await sendInvitation(server, admin.as, admin.teamId, email, `${CALLBACK_URL}?after=%2Fteams`);
    expect(res.status, res.text).toBe(200);
    const { link } = linkIn(await mailing.mailTo(email));
    expect(link.searchParams.get("after")).toBe("/teams");
  });

  it("uses the project's edited template and selected theme when it sends through its own SMTP server", async () => {
    const p = await teamProject(server);
    await patchProjectConfig(server, p, { email_config: ownSmtp(), email_theme: DARK_EMAIL_THEME_ID });
    const source = `import * as React from "react";
import { Text, Link } from "@react-email/components";
export function subject({ variables }) { return "Come and join " + variables.teamDisplayName + " (custom)"; }
export function EmailTemplate({ variables }) {
  return <Text>Custom invitation to {variables.teamDisplayName}: <Link href={variables.link}>{variables.link}</Link></Text>;
}
`;
    const patched = await server.request(`/internal/email-templates/${DEFAULT_EMAIL_TEMPLATE_IDS.team_invitation}`, {
      method: "PATCH",
      as: p.admin,
      body: { tsx_source: source },
    });
    expect(patched.status, patched.text).toBe(200);
    const inviter = await newUser(server, p);
    const name = await teamName(inviter.teamId);
    const { mail, code } = await invite(mailing, inviter.as, inviter.teamId);
    expect(mail.subject).toBe(`Come and join ${name} (custom)`);
    expect(mail.text).toContain(`Custom invitation to ${name}:`);
    expect(mail.html).toContain("#09090b");
    expect(mail.from?.value[0]?.address).toBe("custom@example.com");
    const joiner = await newUser(server, p);
    expect((await acceptInvitation(server, joiner.as, code)).status).toBe(200);
  });

  it("an edited template that fails for real recipients → the plain message, which names the team, and the code still works", async () => {
    const p = await teamProject(server);
    await patchProjectConfig(server, p, { email_config: ownSmtp() });
    // Renders for the sample link (so the PATCH is accepted), throws for a real one.
    const source = `import * as React from "react";
import { Text } from "@react-email/components";
export function EmailTemplate({ variables }) {
  if (!String(variables.link).includes("example.com")) throw new Error("no");
  return <Text>Fragile</Text>;
}
`;
    const patched = await server.request(`/internal/email-templates/${DEFAULT_EMAIL_TEMPLATE_IDS.team_invitation}`, {
      method: "PATCH",
      as: p.admin,
      body: { tsx_source: source },
    });
    expect(patched.status, patched.text).toBe(200);
    const inviter = await newUser(server, p);
    const { mail, code } = await invite(mailing, inviter.as, inviter.teamId);
    expect(mail.subject).toBe(`You are invited to join ${await teamName(inviter.teamId)} on Test project`);
    expect(mail.text).not.toContain("Fragile");
    const joiner = await newUser(server, p);
    expect((await acceptInvitation(server, joiner.as, code)).status).toBe(200);
  });

  it("an untrusted callback URL → REDIRECT_URL_NOT_WHITELISTED, nothing stored", async () => {
    const email = uniqueEmail("evil");
    for (const as of [project.server, admin.as]) {
      expectKnownError(await sendInvitation(server, as, admin.teamId, email, EVIL_CALLBACK), "REDIRECT_URL_NOT_WHITELISTED", 400);
    }
    const [row] = await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(verificationCodes)
      .where(sql`${verificationCodes.data}->>'recipient_email' = ${email}`);
    expect(Number(row!.n)).toBe(0);
  });

  it("a team that does not exist → TEAM_NOT_FOUND (server); a client is not a member of it", async () => {
    const res = await sendInvitation(server, project.server, UNKNOWN_UUID, uniqueEmail());
    expectKnownError(res, "TEAM_NOT_FOUND", 404);
    expect(res.body.details).toEqual({ team_id: UNKNOWN_UUID });
    expectKnownError(await sendInvitation(server, admin.as, UNKNOWN_UUID, uniqueEmail()), "TEAM_MEMBERSHIP_NOT_FOUND", 404);
  });

  it("a client needs a user, membership and $invite_members; team_member holds it", async () => {
    expectKnownError(await sendInvitation(server, project.client, admin.teamId, uniqueEmail()), "USER_AUTHENTICATION_REQUIRED", 401);
    expectKnownError(await sendInvitation(server, stranger.as, admin.teamId, uniqueEmail()), "TEAM_MEMBERSHIP_NOT_FOUND", 404);
    const refused = await sendInvitation(server, powerless.as, bareAdmin.teamId, uniqueEmail());
    expectKnownError(refused, "TEAM_PERMISSION_REQUIRED", 401);
    expect(refused.body.details).toMatchObject({ permission_id: "$invite_members" });
    await invite(mailing, member.as, admin.teamId);
  });

  it("a project's client or server cannot invite to another project's team", async () => {
    expectKnownError(await sendInvitation(server, other.server, admin.teamId, uniqueEmail()), "TEAM_NOT_FOUND", 404);
    const outsider = await newUser(server, other);
    expectKnownError(await sendInvitation(server, outsider.as, admin.teamId, uniqueEmail()), "TEAM_MEMBERSHIP_NOT_FOUND", 404);
  });

  it("bad input → SCHEMA_ERROR", async () => {
    const send = (body: unknown) => server.request("/team-invitations/send-code", { method: "POST", as: project.server, body });
    expectSchemaErrorIncluding(await send({ team_id: admin.teamId, callback_url: CALLBACK_URL }), "body.email must be defined");
    expectSchemaErrorIncluding(
      await send({ team_id: "nope", email: uniqueEmail(), callback_url: CALLBACK_URL }),
      "body.team_id must be a valid UUID",
    );
    expectKnownError(await send({ team_id: admin.teamId, email: "not-an-address", callback_url: CALLBACK_URL }), "SCHEMA_ERROR", 400);
    expectKnownError(await send({ team_id: admin.teamId, email: uniqueEmail() }), "SCHEMA_ERROR", 400);
    expectSchemaErrorIncluding(
      await send({ team_id: admin.teamId, email: uniqueEmail(), callback_url: CALLBACK_URL, permission_ids: [] }),
      "body contains unknown properties: permission_ids",
    );
  });
});

describe("GET /team-invitations?team_id", () => {
  it("lists the team's pending invitations only: not accepted, expired or revoked ones", async () => {
    const owner = await newUser(server, project);
    const keptEmail = uniqueEmail("kept");
    const [kept, accepted, expired, revoked] = await Promise.all(
      [keptEmail, uniqueEmail(), uniqueEmail(), uniqueEmail()].map((email) => invite(mailing, owner.as, owner.teamId, email)),
    );
    const joiner = await newUser(server, project);
    expect((await acceptInvitation(server, joiner.as, accepted!.code)).status).toBe(200);
    await expire(expired!.id);
    expect((await revokeInvitation(server, owner.as, owner.teamId, revoked!.id)).status).toBe(200);

    const res = await listByTeam(server, owner.as, owner.teamId);
    expect(res.status, res.text).toBe(200);
    expect(res.body.items).toHaveLength(1);
    const [item] = res.body.items;
    expect(Object.keys(item).sort()).toEqual(INVITATION_KEYS);
    expect(item).toEqual({
      id: kept!.id,
      team_id: owner.teamId,
      team_display_name: await teamName(owner.teamId),
      recipient_email: keptEmail,
      expires_at_millis: expect.any(Number),
    });
    // Valid for 7 days.
    expect(Math.abs(item.expires_at_millis - (Date.now() + 7 * 24 * 3600_000))).toBeLessThan(60_000);
    expect((await listByTeam(server, project.server, owner.teamId)).body).toEqual(res.body);
  });

  it("a team without invitations → an empty list", async () => {
    const loner = await newUser(server, project);
    const res = await listByTeam(server, loner.as, loner.teamId);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ items: [], is_paginated: false });
  });

  it("a client needs $read_members and $invite_members (team_member has both); $read_members is asked for first", async () => {
    expect((await listByTeam(server, member.as, admin.teamId)).status).toBe(200);
    const refused = await listByTeam(server, powerless.as, bareAdmin.teamId);
    expectKnownError(refused, "TEAM_PERMISSION_REQUIRED", 401);
    expect(refused.body.details).toMatchObject({ permission_id: "$read_members" });
    expectKnownError(await listByTeam(server, stranger.as, admin.teamId), "TEAM_MEMBERSHIP_NOT_FOUND", 404);
    expectKnownError(await listByTeam(server, project.client, admin.teamId), "USER_AUTHENTICATION_REQUIRED", 401);
  });

  it("an unknown team → TEAM_NOT_FOUND; another project's team is unknown to its server", async () => {
    expectKnownError(await listByTeam(server, project.server, UNKNOWN_UUID), "TEAM_NOT_FOUND", 404);
    expectKnownError(await listByTeam(server, other.server, admin.teamId), "TEAM_NOT_FOUND", 404);
    expectKnownError(await listByTeam(server, other.admin, admin.teamId), "TEAM_NOT_FOUND", 404);
    const outsider = await newUser(server, other);
    expectKnownError(await listByTeam(server, outsider.as, admin.teamId), "TEAM_MEMBERSHIP_NOT_FOUND", 404);
  });

  it("both team_id and user_id, or neither → 400 plain text", async () => {
    const both = await server.request("/team-invitations", { as: project.server, query: { team_id: admin.teamId, user_id: admin.userId } });
    expectPlainError(both, 400);
    expect(both.text).toBe("Cannot specify both team_id and user_id");
    const neither = await server.request("/team-invitations", { as: project.server });
    expectPlainError(neither, 400);
    expect(neither.text).toBe("Must specify either team_id or user_id");
    expectSchemaErrorIncluding(await listByTeam(server, project.server, "nope"), "query.team_id must be a valid UUID");
  });
});

describe("GET /team-invitations?user_id", () => {
  it("lists pending invitations to the user's verified addresses, in teams that still exist", async () => {
    const inviter = await newUser(server, project);
    const doomed = await newUser(server, project);
    const invitee = await newUser(server, project);
    const verifiedSecond = uniqueEmail("second");
    const unverified = uniqueEmail("unverified");
    for (const [value, isVerified] of [
      [verifiedSecond, true],
      [unverified, false],
    ] as const) {
      const res = await server.request("/contact-channels", {
        method: "POST",
        as: project.server,
        body: { user_id: invitee.userId, type: "email", value, used_for_auth: false, is_verified: isVerified },
      });
      expect(res.status, res.text).toBe(201);
    }
    const toPrimary = await invite(mailing, inviter.as, inviter.teamId, invitee.email);
    // Addresses match whatever their case.
    const toSecond = await invite(mailing, inviter.as, inviter.teamId, verifiedSecond.toUpperCase());
    await invite(mailing, inviter.as, inviter.teamId, unverified);
    const used = await invite(mailing, inviter.as, inviter.teamId, invitee.email);
    const expired = await invite(mailing, inviter.as, inviter.teamId, invitee.email);
    const revoked = await invite(mailing, inviter.as, inviter.teamId, verifiedSecond);
    await invite(mailing, doomed.as, doomed.teamId, invitee.email);
    expect((await acceptInvitation(server, (await newUser(server, project)).as, used.code)).status).toBe(200);
    await expire(expired.id);
    expect((await revokeInvitation(server, inviter.as, inviter.teamId, revoked.id)).status).toBe(200);
    await db().delete(teams).where(eq(teams.id, doomed.teamId));
    // Invitations to other people are not listed.
    await invite(mailing, inviter.as, inviter.teamId);

    const res = await listByUser(server, invitee.as);
    expect(res.status, res.text).toBe(200);
    const name = await teamName(inviter.teamId);
    expect(res.body.items).toEqual([
      {
        id: toPrimary.id,
        team_id: inviter.teamId,
        team_display_name: name,
        recipient_email: invitee.email,
        expires_at_millis: expect.any(Number),
      },
      {
        id: toSecond.id,
        team_id: inviter.teamId,
        team_display_name: name,
        recipient_email: verifiedSecond.toUpperCase(),
        expires_at_millis: expect.any(Number),
      },
    ]);
    expect((await listByUser(server, invitee.as, invitee.userId)).body).toEqual(res.body);
    expect((await listByUser(server, project.server, invitee.userId)).body).toEqual(res.body);
  });

  it("an unverified address sees none", async () => {
    const unverifiedUser = await newUser(server, project, { verified: false });
    await invite(mailing, admin.as, admin.teamId, unverifiedUser.email);
    expect((await listByUser(server, unverifiedUser.as)).body.items).toEqual([]);
  });

  it("a client naming another user → CANNOT_GET_OWN_USER_WITHOUT_USER; me without a user likewise", async () => {
    expectKnownError(await listByUser(server, member.as, admin.userId), "CANNOT_GET_OWN_USER_WITHOUT_USER", 400);
    expectKnownError(await listByUser(server, project.client, "me"), "CANNOT_GET_OWN_USER_WITHOUT_USER", 400);
    expectKnownError(await listByUser(server, project.server, "me"), "CANNOT_GET_OWN_USER_WITHOUT_USER", 400);
  });

  it("an unknown user, or another project's, → USER_NOT_FOUND (server)", async () => {
    expectKnownError(await listByUser(server, project.server, UNKNOWN_UUID), "USER_NOT_FOUND", 404);
    expectKnownError(await listByUser(server, other.server, admin.userId), "USER_NOT_FOUND", 404);
    expectSchemaErrorIncluding(await listByUser(server, project.server, "nope"), "query.user_id must be a valid UUID");
  });

  it("does not list another project's invitations to the same address", async () => {
    const email = uniqueEmail("twice");
    const here = await newUser(server, project, { email });
    const there = await newUser(server, other);
    await invite(mailing, there.as, there.teamId, email);
    expect((await listByUser(server, here.as)).body.items).toEqual([]);
  });
});

describe("DELETE /team-invitations/{id}?team_id", () => {
  it("revokes: no longer listed, and its code no longer works", async () => {
    const sent = await invite(mailing, admin.as, admin.teamId);
    const res = await revokeInvitation(server, admin.as, admin.teamId, sent.id);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ success: true });
    const ids = (await listByTeam(server, admin.as, admin.teamId)).body.items.map((i: { id: string }) => i.id);
    expect(ids).not.toContain(sent.id);
    expectKnownError(await acceptInvitation(server, stranger.as, sent.code), "VERIFICATION_CODE_NOT_FOUND", 404);
    // Gone: a second revocation finds nothing.
    const again = await revokeInvitation(server, admin.as, admin.teamId, sent.id);
    expectPlainError(again, 404);
    expect(again.text).toBe("Team invitation not found");
  });

  it("an invitation of another team, an unknown one or one already accepted → 404 plain text", async () => {
    const sent = await invite(mailing, admin.as, admin.teamId);
    const elsewhere = await newUser(server, project);
    for (const [as, teamId, id] of [
      [elsewhere.as, elsewhere.teamId, sent.id],
      [project.server, elsewhere.teamId, sent.id],
      [admin.as, admin.teamId, UNKNOWN_UUID],
    ] as const) {
      const res = await revokeInvitation(server, as, teamId, id);
      expectPlainError(res, 404);
      expect(res.text).toBe("Team invitation not found");
    }
    expect((await acceptInvitation(server, elsewhere.as, sent.code)).status).toBe(200);
    expectPlainError(await revokeInvitation(server, admin.as, admin.teamId, sent.id), 404);
  });

  it("the server revokes any team's invitation; an unknown team → TEAM_NOT_FOUND", async () => {
    const sent = await invite(mailing, admin.as, admin.teamId);
    expectKnownError(await revokeInvitation(server, project.server, UNKNOWN_UUID, sent.id), "TEAM_NOT_FOUND", 404);
    expect((await revokeInvitation(server, project.server, admin.teamId, sent.id)).status).toBe(200);
  });

  it("a client needs $remove_members (team_member does not hold it)", async () => {
    const sent = await invite(mailing, admin.as, admin.teamId);
    const refused = await revokeInvitation(server, member.as, admin.teamId, sent.id);
    expectKnownError(refused, "TEAM_PERMISSION_REQUIRED", 401);
    expect(refused.body.details).toMatchObject({ permission_id: "$remove_members" });
    expectKnownError(await revokeInvitation(server, stranger.as, admin.teamId, sent.id), "TEAM_MEMBERSHIP_NOT_FOUND", 404);
    expectKnownError(await revokeInvitation(server, project.client, admin.teamId, sent.id), "USER_AUTHENTICATION_REQUIRED", 401);
    expect((await listByTeam(server, admin.as, admin.teamId)).body.items.map((i: { id: string }) => i.id)).toContain(sent.id);
  });

  it("another project's server or client cannot revoke it", async () => {
    const sent = await invite(mailing, admin.as, admin.teamId);
    expectKnownError(await revokeInvitation(server, other.server, admin.teamId, sent.id), "TEAM_NOT_FOUND", 404);
    const outsider = await newUser(server, other);
    expectKnownError(await revokeInvitation(server, outsider.as, admin.teamId, sent.id), "TEAM_MEMBERSHIP_NOT_FOUND", 404);
    // Naming their own team does not reach it either.
    expectPlainError(await revokeInvitation(server, outsider.as, outsider.teamId, sent.id), 404);
    expect((await listByTeam(server, admin.as, admin.teamId)).body.items.map((i: { id: string }) => i.id)).toContain(sent.id);
  });

  it("bad input → SCHEMA_ERROR", async () => {
    const missing = await server.request(`/team-invitations/${UNKNOWN_UUID}`, { method: "DELETE", as: project.server });
    expectSchemaErrorIncluding(missing, "query.team_id must be defined");
    expectSchemaErrorIncluding(
      await revokeInvitation(server, project.server, admin.teamId, "nope"),
      "params.invitation_id must be a valid UUID",
    );
  });
});

describe("signed-up users", () => {
  it("a password sign-up gets a personal team and may invite to it", async () => {
    const user = await signUpUser(server, project);
    const me = await server.request("/users/me", { as: user.as });
    await invite(mailing, user.as, me.body.selected_team_id);
  });
});
