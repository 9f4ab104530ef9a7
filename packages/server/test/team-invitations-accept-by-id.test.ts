/**
 * Accepting an invitation by its id (`POST /team-invitations/{id}/accept?user_id=`),
 * as a user's list of received invitations offers it: the user needs a
 * verified address it was mailed to; it is spent like its code; who may
 * accept for whom; everything else is VERIFICATION_CODE_NOT_FOUND; races.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { teams, verificationCodes } from "../src/db/schema/index.ts";
import { sha256Hex } from "../src/lib/secrets.ts";
import { UNKNOWN_UUID, expectSchemaErrorIncluding, uniqueEmail, type Project } from "./fixtures.ts";
import { expectKnownError, type TestServer } from "./harness.ts";
import type { MailingServer } from "./mail-fixtures.ts";
import {
  acceptById,
  acceptInvitation,
  acceptWorld,
  directGrants,
  emailVerificationCode,
  invite,
  listByUser,
  memberIds,
  newUser,
  restrictByAdmin,
  revokeInvitation,
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

async function usedAt(id: string): Promise<Date | null> {
  const [row] = await db().select({ usedAt: verificationCodes.usedAt }).from(verificationCodes).where(eq(verificationCodes.id, id));
  return row!.usedAt;
}

async function addEmail(userId: string, value: string, isVerified: boolean) {
  const res = await server.request("/contact-channels", {
    method: "POST",
    as: project.server,
    body: { user_id: userId, type: "email", value, used_for_auth: false, is_verified: isVerified },
  });
  expect(res.status, res.text).toBe(201);
}

describe("POST /team-invitations/{id}/accept", () => {
  it("user_id=me: the invited user joins with the member defaults; answers {}; the invitation is spent and no longer listed", async () => {
    const team = await newUser(server, project);
    const invitee = await newUser(server, project);
    const sent = await invite(mailing, team.as, team.teamId, invitee.email);
    const listed = await listByUser(server, invitee.as);
    expect(listed.body.items.map((i: { id: string }) => i.id)).toEqual([sent.id]);

    const res = await acceptById(server, invitee.as, sent.id);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({});
    expect(await memberIds(server, team.teamId)).toEqual([team.userId, invitee.userId].sort());
    expect(await directGrants(server, team.teamId, invitee.userId)).toEqual(["team_member"]);
    expect((await listByUser(server, invitee.as)).body.items).toEqual([]);
    expect(await usedAt(sent.id)).not.toBeNull();
    // Single use, by id or by its code.
    expectKnownError(await acceptById(server, invitee.as, sent.id), "VERIFICATION_CODE_NOT_FOUND", 404);
    expectKnownError(await acceptInvitation(server, (await newUser(server, project)).as, sent.code), "VERIFICATION_CODE_ALREADY_USED", 409);
  });

  it("the caller's own id works as me; a verified secondary address counts, whatever its case", async () => {
    const invitee = await newUser(server, project);
    const second = uniqueEmail("second");
    await addEmail(invitee.userId, second, true);
    const sent = await invite(mailing, inviter.as, inviter.teamId, second.toUpperCase());
    const res = await acceptById(server, invitee.as, sent.id, invitee.userId);
    expect(res.status, res.text).toBe(200);
    expect(await memberIds(server, inviter.teamId)).toContain(invitee.userId);
  });

  it("a member already → 200 {}, and the invitation is spent all the same", async () => {
    const team = await newUser(server, project);
    const sent = await invite(mailing, team.as, team.teamId, team.email);
    const res = await acceptById(server, team.as, sent.id);
    expect(res.status, res.text).toBe(200);
    expect(await memberIds(server, team.teamId)).toEqual([team.userId]);
    expect(await directGrants(server, team.teamId, team.userId)).toEqual(["team_admin"]);
    expect(await usedAt(sent.id)).not.toBeNull();
  });

  it("a server accepts for the user it names, who still needs the verified address", async () => {
    const invitee = await newUser(server, project);
    const sent = await invite(mailing, inviter.as, inviter.teamId, invitee.email);
    const stranger = await newUser(server, project);
    expectKnownError(await acceptById(server, project.server, sent.id, stranger.userId), "VERIFICATION_CODE_NOT_FOUND", 404);
    expectKnownError(await acceptById(server, project.server, sent.id, UNKNOWN_UUID), "VERIFICATION_CODE_NOT_FOUND", 404);
    expectKnownError(await acceptById(server, project.server, sent.id), "CANNOT_GET_OWN_USER_WITHOUT_USER", 400);
    const res = await acceptById(server, project.server, sent.id, invitee.userId);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({});
    expect(await memberIds(server, inviter.teamId)).toContain(invitee.userId);
  });
});

describe("who may accept", () => {
  it("a client naming another user, or without a user → CANNOT_GET_OWN_USER_WITHOUT_USER; the invitation stays usable", async () => {
    const invitee = await newUser(server, project);
    const sent = await invite(mailing, inviter.as, inviter.teamId, invitee.email);
    const someone = await newUser(server, project);
    expectKnownError(await acceptById(server, someone.as, sent.id, invitee.userId), "CANNOT_GET_OWN_USER_WITHOUT_USER", 400);
    expectKnownError(await acceptById(server, project.client, sent.id), "CANNOT_GET_OWN_USER_WITHOUT_USER", 400);
    expectKnownError(await acceptById(server, project.client, sent.id, invitee.userId), "CANNOT_GET_OWN_USER_WITHOUT_USER", 400);
    expect(await usedAt(sent.id)).toBeNull();
    expect((await acceptById(server, invitee.as, sent.id)).status).toBe(200);
  });

  it("a user restricted by an administrator → TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED (a server may still add them)", async () => {
    const invitee = await newUser(server, project);
    const sent = await invite(mailing, inviter.as, inviter.teamId, invitee.email);
    await restrictByAdmin(server, project, invitee.userId);
    const res = await acceptById(server, invitee.as, sent.id);
    expectKnownError(res, "TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED", 403);
    expect(res.body.details).toEqual({ restricted_reason: { type: "restricted_by_administrator" } });
    expect(await usedAt(sent.id)).toBeNull();
    expect((await acceptById(server, project.server, sent.id, invitee.userId)).status).toBe(200);
  });

  it("an invitation to someone else's address, or to the user's unverified one → VERIFICATION_CODE_NOT_FOUND, left usable", async () => {
    const invitee = await newUser(server, project);
    const unverified = uniqueEmail("unverified");
    await addEmail(invitee.userId, unverified, false);
    const toUnverified = await invite(mailing, inviter.as, inviter.teamId, unverified);
    const toSomeoneElse = await invite(mailing, inviter.as, inviter.teamId);
    for (const sent of [toUnverified, toSomeoneElse]) {
      expectKnownError(await acceptById(server, invitee.as, sent.id), "VERIFICATION_CODE_NOT_FOUND", 404);
      expect(await usedAt(sent.id)).toBeNull();
    }
    expect(await memberIds(server, inviter.teamId)).not.toContain(invitee.userId);
    // The mailed link still works for whoever holds it.
    expect((await acceptInvitation(server, invitee.as, toSomeoneElse.code)).status).toBe(200);
  });
});

describe("invitations that cannot be accepted → VERIFICATION_CODE_NOT_FOUND", () => {
  it("unknown, expired, revoked, or its team deleted", async () => {
    const team = await newUser(server, project);
    const invitee = await newUser(server, project);
    expectKnownError(await acceptById(server, invitee.as, UNKNOWN_UUID), "VERIFICATION_CODE_NOT_FOUND", 404);

    const expired = await invite(mailing, team.as, team.teamId, invitee.email);
    await db()
      .update(verificationCodes)
      .set({ expiresAt: new Date(server.clock.now()) })
      .where(eq(verificationCodes.id, expired.id));
    expectKnownError(await acceptById(server, invitee.as, expired.id), "VERIFICATION_CODE_NOT_FOUND", 404);

    const revoked = await invite(mailing, team.as, team.teamId, invitee.email);
    expect((await revokeInvitation(server, team.as, team.teamId, revoked.id)).status).toBe(200);
    expectKnownError(await acceptById(server, invitee.as, revoked.id), "VERIFICATION_CODE_NOT_FOUND", 404);

    const orphaned = await invite(mailing, team.as, team.teamId, invitee.email);
    await db().delete(teams).where(eq(teams.id, team.teamId));
    expectKnownError(await acceptById(server, invitee.as, orphaned.id), "VERIFICATION_CODE_NOT_FOUND", 404);
  });

  it("another project's invitation, even to the same address", async () => {
    const email = uniqueEmail("both");
    const here = await newUser(server, project, { email });
    const there = await newUser(server, other);
    const sent = await invite(mailing, there.as, there.teamId, email);
    expectKnownError(await acceptById(server, here.as, sent.id), "VERIFICATION_CODE_NOT_FOUND", 404);
    expectKnownError(await acceptById(server, project.server, sent.id, here.userId), "VERIFICATION_CODE_NOT_FOUND", 404);
    expect(await usedAt(sent.id)).toBeNull();
  });

  it("another flow's code by its id (an e-mail verification), even for its own address", async () => {
    const unverified = await newUser(server, project, { verified: false });
    const code = await emailVerificationCode(mailing, unverified);
    const [row] = await db()
      .select({ id: verificationCodes.id })
      .from(verificationCodes)
      .where(eq(verificationCodes.codeHash, sha256Hex(code)));
    await addEmail(unverified.userId, uniqueEmail("verified"), true);
    expectKnownError(await acceptById(server, project.server, row!.id, unverified.userId), "VERIFICATION_CODE_NOT_FOUND", 404);
  });

  it("bad input → SCHEMA_ERROR", async () => {
    const invitee = await newUser(server, project);
    expectSchemaErrorIncluding(await acceptById(server, invitee.as, "nope"), "params.invitation_id must be a valid UUID");
    const missing = await server.request(`/team-invitations/${UNKNOWN_UUID}/accept`, { method: "POST", as: invitee.as });
    expectSchemaErrorIncluding(missing, "query.user_id must be defined");
    expectSchemaErrorIncluding(await acceptById(server, invitee.as, UNKNOWN_UUID, "someone"), "query.user_id must be a valid UUID");
  });
});

describe("races", () => {
  it("concurrent accepts of one invitation: exactly one 200 (by id or by code), the rest refused, one membership", async () => {
    const team = await newUser(server, project);
    const invitee = await newUser(server, project);
    const sent = await invite(mailing, team.as, team.teamId, invitee.email);
    const results = await Promise.all([
      ...Array.from({ length: 3 }, () => acceptById(server, invitee.as, sent.id)),
      acceptInvitation(server, invitee.as, sent.code),
    ]);
    const ok = results.filter((r) => r.status === 200);
    expect(ok, results.map((r) => r.text).join("\n")).toHaveLength(1);
    for (const r of results.filter((r) => r.status !== 200)) {
      expect(["VERIFICATION_CODE_NOT_FOUND", "VERIFICATION_CODE_ALREADY_USED"]).toContain(r.body.code);
    }
    expect(await memberIds(server, team.teamId)).toEqual([team.userId, invitee.userId].sort());
  });
});
