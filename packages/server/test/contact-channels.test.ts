/**
 * Contact channels: CRUD for clients and servers, the
 * sign-in address rules, and e-mail verification through a real SMTP peer,
 * including the sign-up flow that mails a verification link.
 */
import type { ContactChannelJson } from "@latchkey/shared";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sentEmails, verificationCodes } from "../src/db/schema/index.ts";
import {
  PASSWORD,
  createProject,
  expectPlainError,
  expectSchemaError,
  passwordSignIn,
  signUpUser,
  uniqueEmail,
  type EndUser,
  type Project,
  UNKNOWN_UUID,
} from "./fixtures.ts";
import { expectKnownError, type Auth, type TestServer } from "./harness.ts";
import { CALLBACK_URL, createMailingTestServer, linkIn, type MailingServer } from "./mail-fixtures.ts";

const CHANNEL_KEYS = ["id", "is_primary", "is_verified", "type", "used_for_auth", "user_id", "value"];
const EVIL_CALLBACK = "https://evil.example.com/cb";

let mailing: MailingServer;
let server: TestServer;
let project: Project;
let otherProject: Project;

beforeAll(async () => {
  mailing = await createMailingTestServer();
  server = mailing.server;
  [project, otherProject] = await Promise.all([createProject(server), createProject(server)]);
});
afterAll(() => mailing?.close());

const db = () => server.instance.services.db;

type Channel = ContactChannelJson;

function addChannel(as: Auth, body: Record<string, unknown>) {
  return server.request("/contact-channels", { method: "POST", as, body: { type: "email", used_for_auth: false, ...body } });
}

async function added(as: Auth, body: Record<string, unknown>): Promise<Channel> {
  const res = await addChannel(as, body);
  expect(res.status, res.text).toBe(201);
  return res.body;
}

const list = (as: Auth, userId = "me") => server.request("/contact-channels", { as, query: { user_id: userId } });
const one = (as: Auth, userId: string, id: string) => server.request(`/contact-channels/${userId}/${id}`, { as });
const patch = (as: Auth, userId: string, id: string, body: unknown) =>
  server.request(`/contact-channels/${userId}/${id}`, { method: "PATCH", as, body });
const remove = (as: Auth, userId: string, id: string) => server.request(`/contact-channels/${userId}/${id}`, { method: "DELETE", as });
const sendCode = (as: Auth, userId: string, id: string, callbackUrl = CALLBACK_URL) =>
  server.request(`/contact-channels/${userId}/${id}/send-verification-code`, { method: "POST", as, body: { callback_url: callbackUrl } });
const sendPrimaryCode = (as: Auth, email: string, callbackUrl = CALLBACK_URL) =>
  server.request("/contact-channels/send-verification-code", { method: "POST", as, body: { email, callback_url: callbackUrl } });
const verify = (as: Auth, code: unknown) => server.request("/contact-channels/verify", { method: "POST", as, body: { code } });
const checkCode = (as: Auth, code: unknown) =>
  server.request("/contact-channels/verify/check-code", { method: "POST", as, body: { code } });

async function me(as: Auth) {
  const res = await server.request("/users/me", { as });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

/** The code of the next verification mail to `to`. */
async function mailedCode(to: string): Promise<string> {
  const mail = await mailing.mailTo(to, /Verify your e-mail address for Test project/);
  return linkIn(mail).code;
}

/** How many e-mails were queued to this address (sent or not). */
async function mailsTo(address: string): Promise<number> {
  const rows = await db()
    .select({ id: sentEmails.id })
    .from(sentEmails)
    .where(sql`${sentEmails.to} @> ${JSON.stringify([address])}::jsonb`);
  return rows.length;
}

/** A user and one extra (non-primary, unverified) address of theirs. */
async function userWithSecondAddress(): Promise<{ user: EndUser; channel: Channel }> {
  const user = await signUpUser(server, project);
  const channel = await added(user.as, { user_id: "me", value: uniqueEmail("second") });
  return { user, channel };
}

describe("POST /contact-channels", () => {
  it("adds an address for the signed-in user (201); the list shows the primary first, then oldest first", async () => {
    const user = await signUpUser(server, project);
    const value = uniqueEmail("extra");
    const res = await addChannel(user.as, { user_id: "me", value, used_for_auth: true });
    expect(res.status, res.text).toBe(201);
    expect(Object.keys(res.body)).toEqual(CHANNEL_KEYS);
    expect(res.body).toEqual({
      id: expect.any(String),
      is_primary: false,
      is_verified: false,
      type: "email",
      used_for_auth: true,
      user_id: user.userId,
      value,
    });
    const third = await added(user.as, { user_id: user.userId, value: uniqueEmail("third") });

    const listed = await list(user.as);
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.is_paginated).toBe(false);
    expect(listed.body.items.map((c: Channel) => c.value)).toEqual([user.email, value, third.value]);
    expect(listed.body.items[0]).toMatchObject({ is_primary: true, used_for_auth: true, is_verified: false });
    expect((await list(project.server, user.userId)).body).toEqual(listed.body);
    // The new address signs in like the primary one.
    expect((await passwordSignIn(server, project, value)).status).toBe(200);
  });

  it("server: is_verified and is_primary; the primary flag moves, and /users/me shows it at once", async () => {
    const user = await signUpUser(server, project);
    expect((await me(user.as)).primary_email).toBe(user.email);
    const value = uniqueEmail("new-primary");
    const created = await added(project.server, { user_id: user.userId, value, is_primary: true, is_verified: true });
    expect(created).toMatchObject({ is_primary: true, is_verified: true, used_for_auth: false });

    const items: Channel[] = (await list(project.server, user.userId)).body.items;
    expect(items.map((c) => [c.value, c.is_primary])).toEqual([
      [value, true],
      [user.email, false],
    ]);
    const view = await me(user.as);
    expect(view.primary_email).toBe(value);
    expect(view.primary_email_verified).toBe(true);
  });

  it("refuses the same address twice for one user (any case) with a 400, changing nothing", async () => {
    const user = await signUpUser(server, project);
    const res = await addChannel(user.as, { user_id: "me", value: user.email.toUpperCase() });
    expectPlainError(res, 400, /already has a contact channel with this e-mail address/);
    expectPlainError(await addChannel(project.server, { user_id: user.userId, value: user.email }), 400, /already has/);
    expect((await list(user.as)).body.items).toHaveLength(1);
  });

  it("an address another user signs in with → CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE; without used_for_auth it is fine", async () => {
    const [alice, bob] = await Promise.all([signUpUser(server, project), signUpUser(server, project)]);
    const res = await addChannel(bob.as, { user_id: "me", value: alice.email.toUpperCase(), used_for_auth: true });
    expectKnownError(res, "CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE", 409);
    expect(res.body.details).toEqual({
      type: "email",
      contact_channel_value: alice.email.toUpperCase(),
      would_work_if_email_was_verified: false,
    });
    expect((await list(bob.as)).body.items).toHaveLength(1);

    const notForAuth = await added(bob.as, { user_id: "me", value: alice.email, used_for_auth: false });
    // Turning sign-in on for it later hits the same rule.
    expectKnownError(
      await patch(bob.as, "me", notForAuth.id, { used_for_auth: true }),
      "CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE",
      409,
    );
    expect((await one(bob.as, "me", notForAuth.id)).body.used_for_auth).toBe(false);
    // Another project's users are no one's business here.
    const elsewhere = await signUpUser(server, otherProject);
    expect((await addChannel(elsewhere.as, { user_id: "me", value: alice.email, used_for_auth: true })).status).toBe(201);
  });

  it("two users claiming one new sign-in address at once: exactly one gets it", async () => {
    const [a, b] = await Promise.all([signUpUser(server, project), signUpUser(server, project)]);
    const value = uniqueEmail("contested");
    const results = await Promise.all([a, b].map((u) => addChannel(u.as, { user_id: "me", value, used_for_auth: true })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    expectKnownError(
      results.find((r) => r.status === 409)!,
      "CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE",
      409,
    );
  });

  it("a client acts only for itself (403 plain text); unknown users → USER_ID_DOES_NOT_EXIST", async () => {
    const [alice, bob] = await Promise.all([signUpUser(server, project), signUpUser(server, project)]);
    expectPlainError(await addChannel(alice.as, { user_id: bob.userId, value: uniqueEmail() }), 403, /own user/);
    expect((await list(project.server, bob.userId)).body.items).toHaveLength(1);
    expectKnownError(await addChannel(project.server, { user_id: UNKNOWN_UUID, value: uniqueEmail() }), "USER_ID_DOES_NOT_EXIST", 400);
    const stranger = await signUpUser(server, otherProject);
    expectKnownError(await addChannel(project.server, { user_id: stranger.userId, value: uniqueEmail() }), "USER_ID_DOES_NOT_EXIST", 400);
    expectKnownError(await addChannel(project.server, { user_id: "me", value: uniqueEmail() }), "CANNOT_GET_OWN_USER_WITHOUT_USER", 400);
  });

  it("schema errors: e-mail, user id, type, unknown keys, and is_verified from a client", async () => {
    const user = await signUpUser(server, project);
    const post = (body: Record<string, unknown>, as: Auth = user.as) => server.request("/contact-channels", { method: "POST", as, body });
    const base = { user_id: "me", type: "email", value: uniqueEmail(), used_for_auth: false };
    expectSchemaError(await post({ ...base, value: "not-an-email" }), "POST", "/contact-channels", ["body.value must be a valid email"]);
    expectSchemaError(await post({ ...base, user_id: "nope" }), "POST", "/contact-channels", ["body.user_id must be a valid UUID"]);
    expectSchemaError(await post({ ...base, type: "phone" }), "POST", "/contact-channels", [
      "body.type must be one of the following values: email",
    ]);
    expectSchemaError(await post({ ...base, used_for_auth: undefined }), "POST", "/contact-channels", [
      "body.used_for_auth must be defined",
    ]);
    expectSchemaError(await post({ ...base, colour: "red" }), "POST", "/contact-channels", ["body contains unknown properties: colour"]);
    expectSchemaError(await post({ ...base, is_verified: true }), "POST", "/contact-channels", [
      "body contains unknown properties: is_verified",
    ]);
    expect((await list(user.as)).body.items).toHaveLength(1);
  });
});

describe("GET /contact-channels", () => {
  it("needs a user id; a client may only list its own", async () => {
    const [alice, bob] = await Promise.all([signUpUser(server, project), signUpUser(server, project)]);
    expectPlainError(await list(alice.as, bob.userId), 403, /own user/);
    expectSchemaError(await server.request("/contact-channels", { as: alice.as }), "GET", "/contact-channels", [
      "query.user_id must be defined",
    ]);
    expectSchemaError(await list(alice.as, "someone"), "GET", "/contact-channels", ["query.user_id must be a valid UUID"]);
    expectKnownError(await list(project.server, UNKNOWN_UUID), "USER_ID_DOES_NOT_EXIST", 400);
    expectKnownError(await list(project.client), "CANNOT_GET_OWN_USER_WITHOUT_USER", 400);
  });
});

describe("one contact channel: GET, PATCH, DELETE", () => {
  it("reads one channel by me or by id", async () => {
    const { user, channel } = await userWithSecondAddress();
    for (const [as, userId] of [
      [user.as, "me"],
      [user.as, user.userId],
      [project.server, user.userId],
      [project.admin, user.userId],
    ] as const) {
      const res = await one(as, userId, channel.id);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual(channel);
    }
  });

  it("another user's or project's channel is not found (404 plain text, 400 to delete); another user id as a client → 403", async () => {
    const [{ user: alice, channel: aliceChannel }, { user: bob, channel: bobChannel }] = await Promise.all([
      userWithSecondAddress(),
      userWithSecondAddress(),
    ]);
    const stranger = await signUpUser(server, otherProject);
    const strangerChannel = await added(stranger.as, { user_id: "me", value: uniqueEmail() });

    expectPlainError(await one(alice.as, "me", bobChannel.id), 404, /Contact channel not found/);
    expectPlainError(await one(alice.as, bob.userId, bobChannel.id), 403, /own user/);
    expectPlainError(await one(project.server, alice.userId, bobChannel.id), 404, /Contact channel not found/);
    expectPlainError(await one(project.server, alice.userId, strangerChannel.id), 404, /Contact channel not found/);
    expectKnownError(await one(project.server, stranger.userId, strangerChannel.id), "USER_ID_DOES_NOT_EXIST", 400);
    expectPlainError(await one(project.server, alice.userId, UNKNOWN_UUID), 404);

    // Writes are refused the same way, and change nothing.
    expectPlainError(await patch(alice.as, "me", bobChannel.id, { value: uniqueEmail() }), 404);
    expectPlainError(await patch(alice.as, bob.userId, bobChannel.id, { value: uniqueEmail() }), 403);
    expectPlainError(await remove(alice.as, "me", bobChannel.id), 400, /Contact channel not found/);
    expectPlainError(await remove(project.server, alice.userId, strangerChannel.id), 400, /Contact channel not found/);
    expectPlainError(await remove(project.server, alice.userId, UNKNOWN_UUID), 400, /Contact channel not found/);
    expectPlainError(await sendCode(alice.as, "me", bobChannel.id), 404);
    expect((await one(bob.as, "me", bobChannel.id)).body).toEqual(bobChannel);
    expect((await one(stranger.as, "me", strangerChannel.id)).body).toEqual(strangerChannel);
    expect((await one(alice.as, "me", aliceChannel.id)).status).toBe(200);
  });

  it("schema errors on the path and body", async () => {
    const { user, channel } = await userWithSecondAddress();
    expectSchemaError(await one(user.as, "me", "abc"), "GET", "/contact-channels/me/abc", [
      "params.contact_channel_id must be a valid UUID",
    ]);
    expectSchemaError(await one(user.as, "someone", channel.id), "GET", `/contact-channels/someone/${channel.id}`, [
      "params.user_id must be a valid UUID",
    ]);
    const path = `/contact-channels/me/${channel.id}`;
    expectSchemaError(await patch(user.as, "me", channel.id, { value: "x@" }), "PATCH", path, ["body.value must be a valid email"]);
    expectSchemaError(await patch(user.as, "me", channel.id, { is_verified: true }), "PATCH", path, [
      "body contains unknown properties: is_verified",
    ]);
    expectSchemaError(await patch(user.as, "me", channel.id, { type: "email" }), "PATCH", path, ["body contains unknown properties: type"]);
    expect((await one(user.as, "me", channel.id)).body).toEqual(channel);
  });

  it("PATCH: a new address is unverified; server may set is_verified; a case change keeps it verified", async () => {
    const { user, channel } = await userWithSecondAddress();
    const verified = await patch(project.server, user.userId, channel.id, { is_verified: true });
    expect(verified.status, verified.text).toBe(200);
    expect(verified.body).toEqual({ ...channel, is_verified: true });

    const recased = await patch(user.as, "me", channel.id, { value: channel.value.toUpperCase() });
    expect(recased.body).toMatchObject({ value: channel.value.toUpperCase(), is_verified: true });

    const value = uniqueEmail("changed");
    const changed = await patch(user.as, "me", channel.id, { value, used_for_auth: true });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toEqual({ ...channel, value, used_for_auth: true, is_verified: false });
    expect((await one(user.as, "me", channel.id)).body).toEqual(changed.body);
    // The user's own other address cannot be taken twice.
    expectPlainError(await patch(user.as, "me", channel.id, { value: user.email }), 400, /already has/);
    // An empty patch changes nothing.
    expect((await patch(user.as, "me", channel.id, {})).body).toEqual(changed.body);
  });

  it("PATCH is_primary moves the primary e-mail; changing the primary's address shows in /users/me", async () => {
    const { user, channel } = await userWithSecondAddress();
    const res = await patch(user.as, "me", channel.id, { is_primary: true });
    expect(res.status, res.text).toBe(200);
    expect(res.body.is_primary).toBe(true);
    expect((await list(user.as)).body.items.map((c: Channel) => [c.value, c.is_primary])).toEqual([
      [channel.value, true],
      [user.email, false],
    ]);
    expect((await me(user.as)).primary_email).toBe(channel.value);

    await patch(project.server, user.userId, channel.id, { is_verified: true });
    expect((await me(user.as)).primary_email_verified).toBe(true);
    const value = uniqueEmail("renamed");
    await patch(user.as, "me", channel.id, { value });
    const view = await me(user.as);
    expect(view.primary_email).toBe(value);
    expect(view.primary_email_verified).toBe(false);
  });

  it("DELETE removes the channel; deleting the primary leaves the user without a primary e-mail", async () => {
    const { user, channel } = await userWithSecondAddress();
    const res = await remove(user.as, "me", channel.id);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ success: true });
    expectPlainError(await one(user.as, "me", channel.id), 404);
    expectPlainError(await remove(user.as, "me", channel.id), 400);

    const [primary] = (await list(user.as)).body.items as Channel[];
    expect((await remove(project.server, user.userId, primary!.id)).status).toBe(200);
    expect((await list(user.as)).body.items).toEqual([]);
    expect((await me(user.as)).primary_email).toBeNull();
  });
});

describe("verification", () => {
  it("mails a code to a channel; check-code does not spend it; verify does, once", async () => {
    const { user, channel } = await userWithSecondAddress();
    const sent = await sendCode(user.as, "me", channel.id);
    expect(sent.status, sent.text).toBe(200);
    expect(sent.body).toEqual({ success: true });
    const code = await mailedCode(channel.value);

    for (let i = 0; i < 2; i++) {
      const checked = await checkCode(project.client, code);
      expect(checked.status, checked.text).toBe(200);
      expect(checked.body).toEqual({ is_code_valid: true });
    }
    expect((await one(user.as, "me", channel.id)).body.is_verified).toBe(false);

    // No signed-in user needed: the link may be opened in another browser.
    const verified = await verify(project.client, code);
    expect(verified.status, verified.text).toBe(200);
    expect(verified.body).toEqual({ success: true });
    expect((await one(user.as, "me", channel.id)).body.is_verified).toBe(true);

    expectKnownError(await verify(project.client, code), "VERIFICATION_CODE_ALREADY_USED", 409);
    expectKnownError(await checkCode(project.client, code), "VERIFICATION_CODE_ALREADY_USED", 409);
    expectKnownError(await sendCode(user.as, "me", channel.id), "EMAIL_ALREADY_VERIFIED", 409);
  });

  it("the primary e-mail: send-verification-code {email} then verify; /users/me shows it verified", async () => {
    const user = await signUpUser(server, project);
    expect((await me(user.as)).primary_email_verified).toBe(false);
    const sent = await sendPrimaryCode(user.as, user.email.toUpperCase());
    expect(sent.status, sent.text).toBe(200);
    expect(sent.body).toEqual({ success: true });
    const code = await mailedCode(user.email);
    expect((await verify(project.server, code)).status).toBe(200);
    expect((await me(user.as)).primary_email_verified).toBe(true);
    expectKnownError(await sendPrimaryCode(user.as, user.email), "EMAIL_ALREADY_VERIFIED", 409);
  });

  it("primary send-verification-code failures", async () => {
    const { user, channel } = await userWithSecondAddress();
    const path = "/contact-channels/send-verification-code";
    expectSchemaError(await sendPrimaryCode(project.client, user.email), "POST", path, ["auth.user must be defined"]);
    expectSchemaError(await sendPrimaryCode(user.as, "nope"), "POST", path, ["body.email must be a valid email"]);
    expectKnownError(await sendPrimaryCode(user.as, uniqueEmail("unrelated")), "EMAIL_NOT_ASSOCIATED_WITH_USER", 400);
    const notPrimary = await sendPrimaryCode(user.as, channel.value);
    expectKnownError(notPrimary, "EMAIL_IS_NOT_PRIMARY_EMAIL", 400);
    expect(notPrimary.body.details).toEqual({ email: channel.value, primary_email: user.email });
    expectKnownError(await sendPrimaryCode(user.as, user.email, EVIL_CALLBACK), "REDIRECT_URL_NOT_WHITELISTED", 400);

    // A user without a primary e-mail (created by the server, signed in by a server-made session).
    const created = await server.request("/users", { method: "POST", as: project.server, body: {} });
    expect(created.status, created.text).toBe(201);
    const session = await server.request("/auth/sessions", { method: "POST", as: project.server, body: { user_id: created.body.id } });
    const noPrimary: Auth = { ...project.client, accessToken: session.body.access_token };
    const res = await sendPrimaryCode(noPrimary, uniqueEmail());
    expectPlainError(res, 400);
    expect(res.text).toBe("User does not have a primary email");

    expect(await mailsTo(user.email)).toBe(0);
    expect(await mailsTo(channel.value)).toBe(0);
  });

  it("a client without a session → CANNOT_GET_OWN_USER_WITHOUT_USER, whatever user id it names", async () => {
    const { user, channel } = await userWithSecondAddress();
    expectKnownError(await sendCode(project.client, user.userId, channel.id), "CANNOT_GET_OWN_USER_WITHOUT_USER", 400);
    expectKnownError(await sendCode(project.client, "me", channel.id), "CANNOT_GET_OWN_USER_WITHOUT_USER", 400);
    expect(await mailsTo(channel.value)).toBe(0);
  });

  it("an untrusted callback URL → REDIRECT_URL_NOT_WHITELISTED, and nothing is mailed", async () => {
    const { user, channel } = await userWithSecondAddress();
    expectKnownError(await sendCode(user.as, "me", channel.id, EVIL_CALLBACK), "REDIRECT_URL_NOT_WHITELISTED", 400);
    expectSchemaError(
      await sendCode(user.as, "me", channel.id, "not a url"),
      "POST",
      `/contact-channels/me/${channel.id}/send-verification-code`,
      ["body.callback_url contains spaces"],
    );
    expect(await mailsTo(channel.value)).toBe(0);
  });

  it("a code sent before the address changed verifies nothing and stays unspent", async () => {
    const { user, channel } = await userWithSecondAddress();
    await sendCode(user.as, "me", channel.id);
    const code = await mailedCode(channel.value);
    await patch(user.as, "me", channel.id, { value: uniqueEmail("moved") });
    expectPlainError(await verify(project.client, code), 400, /changed or removed/);
    expectPlainError(await checkCode(project.client, code), 400, /changed or removed/);
    expect((await one(user.as, "me", channel.id)).body.is_verified).toBe(false);

    // Back to the address the code was sent to: the code still works.
    await patch(user.as, "me", channel.id, { value: channel.value });
    expect((await verify(project.client, code)).status).toBe(200);
    expect((await one(user.as, "me", channel.id)).body.is_verified).toBe(true);
  });

  it("a code for a deleted channel is refused", async () => {
    const { user, channel } = await userWithSecondAddress();
    await sendCode(user.as, "me", channel.id);
    const code = await mailedCode(channel.value);
    await remove(user.as, "me", channel.id);
    expectPlainError(await verify(project.client, code), 400, /changed or removed/);
  });

  it("expired, unknown and other projects' codes", async () => {
    const { user, channel } = await userWithSecondAddress();
    await sendCode(user.as, "me", channel.id);
    const code = await mailedCode(channel.value);
    expectKnownError(await verify(otherProject.client, code), "VERIFICATION_CODE_NOT_FOUND", 404);
    expectKnownError(await verify(project.client, "0".repeat(45)), "VERIFICATION_CODE_NOT_FOUND", 404);
    expectKnownError(await checkCode(project.client, "0".repeat(45)), "VERIFICATION_CODE_NOT_FOUND", 404);

    await db()
      .update(verificationCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(and(eq(verificationCodes.projectId, project.id), sql`${verificationCodes.data}->>'contact_channel_id' = ${channel.id}`));
    expectKnownError(await verify(project.client, code), "VERIFICATION_CODE_EXPIRED", 400);
    expectKnownError(await checkCode(project.client, code), "VERIFICATION_CODE_EXPIRED", 400);
    expect((await one(user.as, "me", channel.id)).body.is_verified).toBe(false);
  });

  it("code schema errors", async () => {
    const path = "/contact-channels/verify";
    expectSchemaError(await verify(project.client, "a".repeat(44)), "POST", path, ["body.code must be exactly 45 characters"]);
    expectSchemaError(await verify(project.client, "a".repeat(46)), "POST", path, ["body.code must be exactly 45 characters"]);
    expectSchemaError(await verify(project.client, undefined), "POST", path, ["body.code must be defined"]);
    expectSchemaError(
      await server.request(path, { method: "POST", as: project.client, body: { code: "a".repeat(45), extra: 1 } }),
      "POST",
      path,
      ["body contains unknown properties: extra"],
    );
    expectSchemaError(await checkCode(project.client, "short"), "POST", `${path}/check-code`, ["body.code must be exactly 45 characters"]);
  });

  it("two verifies of one code at once: exactly one succeeds", async () => {
    const { user, channel } = await userWithSecondAddress();
    await sendCode(user.as, "me", channel.id);
    const code = await mailedCode(channel.value);
    const results = await Promise.all([verify(project.client, code), verify(project.client, code)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expectKnownError(
      results.find((r) => r.status === 409)!,
      "VERIFICATION_CODE_ALREADY_USED",
      409,
    );
    expect((await one(user.as, "me", channel.id)).body.is_verified).toBe(true);
  });

  it("the sixth code to one address within 10 minutes → 429 with retry-after", async () => {
    const { user, channel } = await userWithSecondAddress();
    for (let i = 0; i < 5; i++) {
      const res = await sendCode(user.as, "me", channel.id);
      expect(res.status, res.text).toBe(200);
    }
    const refused = await sendCode(project.server, user.userId, channel.id);
    expectPlainError(refused, 429, /Too many e-mails/);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    await server.instance.services.emails.flush();
    expect(await mailsTo(channel.value)).toBe(5);
  });
});

describe("sign-up with verification_callback_url", () => {
  it("mails a verification link naming the project; its code verifies the primary e-mail", async () => {
    const email = uniqueEmail("signup");
    const res = await server.request("/auth/password/sign-up", {
      method: "POST",
      as: project.client,
      body: { email, password: PASSWORD, verification_callback_url: CALLBACK_URL },
    });
    expect(res.status, res.text).toBe(200);
    const as: Auth = { ...project.client, accessToken: res.body.access_token };
    const mail = await mailing.mailTo(email);
    expect(mail.subject).toContain("Test project");
    const { code } = linkIn(mail);
    expect((await me(as)).primary_email_verified).toBe(false);
    const verified = await verify(project.client, code);
    expect(verified.status, verified.text).toBe(200);
    const view = await me(as);
    expect(view.primary_email).toBe(email);
    expect(view.primary_email_verified).toBe(true);
  });

  it("an untrusted verification_callback_url → REDIRECT_URL_NOT_WHITELISTED, and no user is created", async () => {
    const email = uniqueEmail("signup-evil");
    const res = await server.request("/auth/password/sign-up", {
      method: "POST",
      as: project.client,
      body: { email, password: PASSWORD, verification_callback_url: EVIL_CALLBACK },
    });
    expectKnownError(res, "REDIRECT_URL_NOT_WHITELISTED", 400);
    expectKnownError(await passwordSignIn(server, project, email), "EMAIL_PASSWORD_MISMATCH", 400);
    expect(await mailsTo(email)).toBe(0);
  });
});
