/**
 * Taking an invitation back: accept (the member defaults, the code spent in
 * the same transaction, races), details and check-code, every code error,
 * users who may not join, and codes carried to another project.
 */
import { VERIFICATION_CODE_MAX_ATTEMPTS } from "@latchkey/shared";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { teams, verificationCodes } from "../src/db/schema/index.ts";
import { expectSchemaErrorIncluding, patchProjectConfig, type Project } from "./fixtures.ts";
import { expectKnownError, type Auth, type TestResponse, type TestServer } from "./harness.ts";
import type { MailingServer } from "./mail-fixtures.ts";
import {
  acceptInvitation,
  acceptWorld,
  directGrants,
  emailVerificationCode,
  invite,
  listByTeam,
  memberIds,
  newUser,
  restrictByAdmin,
  revokeInvitation,
  teamProject,
  type TeamUser,
} from "./team-invitation-fixtures.ts";

let mailing: MailingServer;
let server: TestServer;
let project: Project;
let other: Project;
let inviter: TeamUser;

const db = () => server.instance.services.db;

beforeAll(async () => ({ mailing, server, project, other, inviter } = await acceptWorld()));
afterAll(() => mailing?.close());

const details = (as: Auth, code: string) => server.request("/team-invitations/accept/details", { method: "POST", as, body: { code } });
const checkCode = (as: Auth, code: string) => server.request("/team-invitations/accept/check-code", { method: "POST", as, body: { code } });

async function teamName(teamId: string): Promise<string> {
  const [row] = await db().select({ name: teams.displayName }).from(teams).where(eq(teams.id, teamId));
  return row!.name;
}

function setCode(id: string, values: Partial<typeof verificationCodes.$inferInsert>) {
  return db().update(verificationCodes).set(values).where(eq(verificationCodes.id, id));
}

/** A code no one ever sent, well-formed. */
const UNKNOWN_CODE = "0".repeat(45);

/** The three code endpoints that read a code, each as a user may call it. */
const codeCalls: [string, (as: Auth, code: string) => Promise<TestResponse>][] = [
  ["accept", (as, code) => acceptInvitation(server, as, code)],
  ["details", details],
  ["check-code", checkCode],
];

describe("POST /team-invitations/accept", () => {
  it("adds the user with the team-member defaults, which let them list and invite but not revoke", async () => {
    const team = await newUser(server, project);
    const sent = await invite(mailing, team.as, team.teamId);
    const joiner = await newUser(server, project);
    const res = await acceptInvitation(server, joiner.as, sent.code);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({});
    expect(await memberIds(server, team.teamId)).toEqual([team.userId, joiner.userId].sort());
    expect(await directGrants(server, team.teamId, joiner.userId)).toEqual(["team_member"]);
    // team_member contains $read_members and $invite_members (answered from the fresh cache).
    expect((await listByTeam(server, joiner.as, team.teamId)).status).toBe(200);
    await invite(mailing, joiner.as, team.teamId);
    const another = await invite(mailing, team.as, team.teamId);
    expectKnownError(await revokeInvitation(server, joiner.as, team.teamId, another.id), "TEAM_PERMISSION_REQUIRED", 401);
    // Spent.
    expectKnownError(await acceptInvitation(server, joiner.as, sent.code), "VERIFICATION_CODE_ALREADY_USED", 409);
  });

  it("the project's member defaults at the time of joining", async () => {
    const p = await teamProject(server, { team_member_default_permissions: [{ id: "$read_members" }] });
    const owner = await newUser(server, p);
    const { code } = await invite(mailing, owner.as, owner.teamId);
    const joiner = await newUser(server, p);
    expect((await acceptInvitation(server, joiner.as, code)).status).toBe(200);
    expect(await directGrants(server, owner.teamId, joiner.userId)).toEqual(["$read_members"]);
    // $read_members alone does not list invitations: $invite_members is needed as well.
    const refused = await listByTeam(server, joiner.as, owner.teamId);
    expectKnownError(refused, "TEAM_PERMISSION_REQUIRED", 401);
    expect(refused.body.details).toMatchObject({ permission_id: "$invite_members" });
  });

  it("a member already → 200 {}, nothing changes, and the code is spent all the same", async () => {
    const team = await newUser(server, project);
    const { code } = await invite(mailing, team.as, team.teamId);
    const res = await acceptInvitation(server, team.as, code);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({});
    expect(await memberIds(server, team.teamId)).toEqual([team.userId]);
    expect(await directGrants(server, team.teamId, team.userId)).toEqual(["team_admin"]);
    expectKnownError(await acceptInvitation(server, team.as, code), "VERIFICATION_CODE_ALREADY_USED", 409);
  });

  it("the recipient's address need not be the accepting user's: the link is the proof", async () => {
    const { code } = await invite(mailing, inviter.as, inviter.teamId);
    const someoneElse = await newUser(server, project);
    expect((await acceptInvitation(server, someoneElse.as, code)).status).toBe(200);
    expect(await memberIds(server, inviter.teamId)).toContain(someoneElse.userId);
  });

  it("a team deleted since → VERIFICATION_CODE_NOT_FOUND", async () => {
    const team = await newUser(server, project);
    const { code } = await invite(mailing, team.as, team.teamId);
    await db().delete(teams).where(eq(teams.id, team.teamId));
    const joiner = await newUser(server, project);
    for (const [, call] of codeCalls) expectKnownError(await call(joiner.as, code), "VERIFICATION_CODE_NOT_FOUND", 404);
  });

  it("a signed-in user is required", async () => {
    const { code } = await invite(mailing, inviter.as, inviter.teamId);
    expectSchemaErrorIncluding(await acceptInvitation(server, project.client, code), "auth.user must be defined");
    expectSchemaErrorIncluding(await details(project.client, code), "auth.user must be defined");
    // The code was not touched.
    const joiner = await newUser(server, project);
    expect((await acceptInvitation(server, joiner.as, code)).status).toBe(200);
  });

  it("bad codes → SCHEMA_ERROR", async () => {
    const joiner = await newUser(server, project);
    for (const [, call] of codeCalls) {
      expectKnownError(await call(joiner.as, "short"), "SCHEMA_ERROR", 400);
    }
    const missing = await server.request("/team-invitations/accept", { method: "POST", as: joiner.as, body: {} });
    expectSchemaErrorIncluding(missing, "body.code must be defined");
  });
});

describe("users who may not join", () => {
  async function expectRestricted(as: Auth, type: string, code: string) {
    for (const [, call] of codeCalls.slice(0, 2)) {
      const res = await call(as, code);
      expectKnownError(res, "TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED", 403);
      expect(res.body.details).toEqual({ restricted_reason: { type } });
    }
    // check-code needs no user, so says nothing about this one.
    expect((await checkCode(as, code)).status).toBe(200);
  }

  it("an anonymous user → TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED, and the code stays usable", async () => {
    const { code } = await invite(mailing, inviter.as, inviter.teamId);
    const anonymous = await server.request("/auth/anonymous/sign-up", { method: "POST", as: project.client });
    expect(anonymous.status, anonymous.text).toBe(200);
    const as = { ...project.client, accessToken: anonymous.body.access_token, allowAnonymous: true };
    await expectRestricted(as, "anonymous", code);
    expect(await memberIds(server, inviter.teamId)).not.toContain(anonymous.body.user_id);
    const joiner = await newUser(server, project);
    expect((await acceptInvitation(server, joiner.as, code)).status).toBe(200);
  });

  it("a user restricted by an administrator → TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED", async () => {
    const { code } = await invite(mailing, inviter.as, inviter.teamId);
    const user = await newUser(server, project);
    await restrictByAdmin(server, project, user.userId);
    const as = { ...project.client, accessToken: user.accessToken };
    await expectRestricted(as, "restricted_by_administrator", code);
    expect(await memberIds(server, inviter.teamId)).not.toContain(user.userId);
  });

  it("an unverified user where the project requires verification → TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED", async () => {
    const p = await teamProject(server);
    const owner = await newUser(server, p);
    const { code } = await invite(mailing, owner.as, owner.teamId);
    await patchProjectConfig(server, p, { require_email_verification: true });
    const user = await newUser(server, p, { verified: false });
    await expectRestricted({ ...user.as, allowAnonymous: true }, "email_not_verified", code);
    const verified = await newUser(server, p);
    expect((await acceptInvitation(server, verified.as, code)).status).toBe(200);
  });
});

describe("code errors, in the catalogue's order", () => {
  it("unknown → VERIFICATION_CODE_NOT_FOUND", async () => {
    const joiner = await newUser(server, project);
    for (const [, call] of codeCalls) expectKnownError(await call(joiner.as, UNKNOWN_CODE), "VERIFICATION_CODE_NOT_FOUND", 404);
    expectKnownError(await checkCode(project.client, UNKNOWN_CODE), "VERIFICATION_CODE_NOT_FOUND", 404);
  });

  it("expired → VERIFICATION_CODE_EXPIRED, also when it was used", async () => {
    const sent = await invite(mailing, inviter.as, inviter.teamId);
    await setCode(sent.id, { expiresAt: new Date(Date.now() - 1000) });
    const joiner = await newUser(server, project);
    for (const [, call] of codeCalls) expectKnownError(await call(joiner.as, sent.code), "VERIFICATION_CODE_EXPIRED", 400);
    await setCode(sent.id, { usedAt: new Date() });
    expectKnownError(await acceptInvitation(server, joiner.as, sent.code), "VERIFICATION_CODE_EXPIRED", 400);
    expect(await memberIds(server, inviter.teamId)).not.toContain(joiner.userId);
  });

  it("used → VERIFICATION_CODE_ALREADY_USED on every endpoint", async () => {
    const { code } = await invite(mailing, inviter.as, inviter.teamId);
    const first = await newUser(server, project);
    expect((await acceptInvitation(server, first.as, code)).status).toBe(200);
    const second = await newUser(server, project);
    for (const [, call] of codeCalls) expectKnownError(await call(second.as, code), "VERIFICATION_CODE_ALREADY_USED", 409);
    expect(await memberIds(server, inviter.teamId)).not.toContain(second.userId);
  });

  it("too many attempts → VERIFICATION_CODE_MAX_ATTEMPTS_REACHED", async () => {
    const sent = await invite(mailing, inviter.as, inviter.teamId);
    await setCode(sent.id, { attemptCount: VERIFICATION_CODE_MAX_ATTEMPTS });
    const joiner = await newUser(server, project);
    for (const [, call] of codeCalls) {
      expectKnownError(await call(joiner.as, sent.code), "VERIFICATION_CODE_MAX_ATTEMPTS_REACHED", 400);
    }
    expect(await memberIds(server, inviter.teamId)).not.toContain(joiner.userId);
  });

  it("a code is matched whatever its case", async () => {
    const { code } = await invite(mailing, inviter.as, inviter.teamId);
    const joiner = await newUser(server, project);
    expect((await acceptInvitation(server, joiner.as, code.toUpperCase())).status).toBe(200);
  });

  it("another flow's code (an e-mail verification) is unknown here", async () => {
    const unverified = await newUser(server, project, { verified: false });
    const code = await emailVerificationCode(mailing, unverified);
    expectKnownError(await acceptInvitation(server, unverified.as, code), "VERIFICATION_CODE_NOT_FOUND", 404);
  });
});

describe("POST /team-invitations/accept/details and /accept/check-code", () => {
  it("details → the team, without spending the code", async () => {
    const { code } = await invite(mailing, inviter.as, inviter.teamId);
    const joiner = await newUser(server, project);
    const res = await details(joiner.as, code);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ team_id: inviter.teamId, team_display_name: await teamName(inviter.teamId) });
    expect((await details(joiner.as, code)).status).toBe(200);
    expect((await acceptInvitation(server, joiner.as, code)).status).toBe(200);
  });

  it("check-code → {is_code_valid: true} without a user, without spending the code", async () => {
    const { code } = await invite(mailing, inviter.as, inviter.teamId);
    for (const as of [project.client, project.server]) {
      const res = await checkCode(as, code);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({ is_code_valid: true });
    }
    const joiner = await newUser(server, project);
    expect((await acceptInvitation(server, joiner.as, code)).status).toBe(200);
    expectKnownError(await checkCode(project.client, code), "VERIFICATION_CODE_ALREADY_USED", 409);
  });
});

describe("another project", () => {
  it("a code of one project is unknown in another, and still works where it belongs", async () => {
    const { code } = await invite(mailing, inviter.as, inviter.teamId);
    const outsider = await newUser(server, other);
    for (const [, call] of codeCalls) expectKnownError(await call(outsider.as, code), "VERIFICATION_CODE_NOT_FOUND", 404);
    expectKnownError(await checkCode(other.server, code), "VERIFICATION_CODE_NOT_FOUND", 404);
    expect(await memberIds(server, inviter.teamId)).not.toContain(outsider.userId);
    const joiner = await newUser(server, project);
    expect((await acceptInvitation(server, joiner.as, code)).status).toBe(200);
  });
});

describe("races", () => {
  it("concurrent accepts of one code by one user: one 200, the rest VERIFICATION_CODE_ALREADY_USED, one membership", async () => {
    const team = await newUser(server, project);
    const { code } = await invite(mailing, team.as, team.teamId);
    const joiner = await newUser(server, project);
    const results = await Promise.all(Array.from({ length: 5 }, () => acceptInvitation(server, joiner.as, code)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of results.filter((r) => r.status !== 200)) expectKnownError(r, "VERIFICATION_CODE_ALREADY_USED", 409);
    expect(await memberIds(server, team.teamId)).toEqual([team.userId, joiner.userId].sort());
    expect(await directGrants(server, team.teamId, joiner.userId)).toEqual(["team_member"]);
  });

  it("concurrent accepts of one code by different users: exactly one joins", async () => {
    const team = await newUser(server, project);
    const { code } = await invite(mailing, team.as, team.teamId);
    const joiners = await Promise.all(Array.from({ length: 4 }, () => newUser(server, project)));
    const results = await Promise.all(joiners.map((j) => acceptInvitation(server, j.as, code)));
    const winners = joiners.filter((_, i) => results[i]!.status === 200);
    expect(winners).toHaveLength(1);
    for (const r of results.filter((r) => r.status !== 200)) expectKnownError(r, "VERIFICATION_CODE_ALREADY_USED", 409);
    expect(await memberIds(server, team.teamId)).toEqual([team.userId, winners[0]!.userId].sort());
  });

  it("one user accepting two invitations to one team at once: both 200, both spent, one membership", async () => {
    const team = await newUser(server, project);
    const email = (await newUser(server, project)).email;
    const [a, b] = await Promise.all([invite(mailing, team.as, team.teamId), invite(mailing, team.as, team.teamId, email)]);
    const joiner = await newUser(server, project);
    const results = await Promise.all([acceptInvitation(server, joiner.as, a.code), acceptInvitation(server, joiner.as, b.code)]);
    for (const r of results) expect(r.status, r.text).toBe(200);
    expect(await memberIds(server, team.teamId)).toEqual([team.userId, joiner.userId].sort());
    const used = await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(verificationCodes)
      .where(and(sql`${verificationCodes.id} in (${a.id}, ${b.id})`, sql`${verificationCodes.usedAt} is not null`));
    expect(Number(used[0]!.n)).toBe(2);
  });
});
