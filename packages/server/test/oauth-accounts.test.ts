/**
 * signInOrLinkWithProvider, called as the OAuth callback calls it: a first
 * sign-in creates the user, later ones find them, linking adds accounts, and
 * a provider e-mail that someone already signs in with meets the project's
 * merge strategy.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openProviderToken } from "../src/domain/auth/oauth/provider-tokens.ts";
import { createProject, patchProjectConfig, signUpUser, uniqueEmail, UNKNOWN_UUID, type Project } from "./fixtures.ts";
import { createTestServer, type TestServer } from "./harness.ts";
import {
  expectSignInError,
  OAUTH_CONFIG,
  oauthSignIn,
  providerProfile,
  providerTokens,
  serverUser,
  storedAccounts,
  storedTokens,
  userCount,
} from "./oauth-account-fixtures.ts";

let server: TestServer;
let project: Project;

beforeAll(async () => {
  server = await createTestServer();
  project = await createProject(server, undefined, { ...OAUTH_CONFIG, create_team_on_sign_up: true });
});
afterAll(() => server?.close());

/** A user who signed up with a password at this address, verified or not. */
async function passwordUser(p: Project, email: string, verified: boolean) {
  const user = await signUpUser(server, p, email);
  if (verified) {
    const res = await server.request(`/users/${user.userId}`, { method: "PATCH", as: p.server, body: { primary_email_verified: true } });
    expect(res.status, res.text).toBe(200);
  }
  return user;
}

describe("a first sign-in", () => {
  it("creates a user as the provider describes them, with a personal team and the account listed", async () => {
    const profile = providerProfile();
    const { user, isNewUser } = await oauthSignIn(server, project, { profile });
    expect(isNewUser).toBe(true);
    const json = await serverUser(server, project, user.id);
    expect(json).toMatchObject({
      display_name: profile.displayName,
      profile_image_url: profile.profileImageUrl,
      primary_email: profile.email,
      primary_email_verified: true,
      primary_email_auth_enabled: true,
      has_password: false,
      is_anonymous: false,
      oauth_providers: [{ account_id: profile.accountId, email: profile.email, id: "github" }],
    });
    expect(json.selected_team.display_name).toBe(`${profile.displayName}'s Team`);
    const members = await server.request("/team-member-profiles", { as: project.server, query: { team_id: json.selected_team_id } });
    expect(members.body.items.map((m: { user_id: string }) => m.user_id)).toEqual([user.id]);
    const [account] = await storedAccounts(server, project, profile.accountId);
    expect(account).toMatchObject({ userId: user.id, providerConfigId: "github", allowSignIn: true, allowConnectedAccounts: true });
  });

  it("grants the project's default permissions, as any sign-up does", async () => {
    const p = await createProject(server, project.owner, OAUTH_CONFIG);
    const define = await server.request("/project-permission-definitions", { method: "POST", as: p.admin, body: { id: "read_reports" } });
    expect(define.status, define.text).toBe(201);
    await patchProjectConfig(server, p, { user_default_permissions: [{ id: "read_reports" }] });
    const { user } = await oauthSignIn(server, p, { profile: providerProfile() });
    const grants = await server.request("/project-permissions", { as: p.server, query: { user_id: user.id } });
    expect(grants.body.items.map((g: { id: string }) => g.id)).toEqual(["read_reports"]);
  });

  it("keeps an unverified provider e-mail unverified", async () => {
    const profile = providerProfile({ emailVerified: false });
    const { user } = await oauthSignIn(server, project, { profile });
    expect(await serverUser(server, project, user.id)).toMatchObject({ primary_email: profile.email, primary_email_verified: false });
  });

  it("creates a user without e-mail when the provider gives none, named after the provider's name", async () => {
    const profile = providerProfile({ email: null, emailVerified: false, displayName: "  ", profileImageUrl: "not a url" });
    const { user, isNewUser } = await oauthSignIn(server, project, { profile });
    expect(isNewUser).toBe(true);
    const json = await serverUser(server, project, user.id);
    expect(json).toMatchObject({ primary_email: null, display_name: null, profile_image_url: null });
    expect(json.oauth_providers).toEqual([{ account_id: profile.accountId, email: null, id: "github" }]);
    expect(json.selected_team.display_name).toBe("Personal Team");
  });

  it("cuts a provider name longer than a display name may be", async () => {
    const { user } = await oauthSignIn(server, project, { profile: providerProfile({ displayName: "n".repeat(300) }) });
    expect(user.displayName).toBe("n".repeat(256));
  });

  it("signs the same provider account in to the same user afterwards, refreshing the account's e-mail", async () => {
    const profile = providerProfile();
    const first = await oauthSignIn(server, project, { profile });
    const newEmail = uniqueEmail("moved");
    const again = await oauthSignIn(server, project, { profile: { ...profile, email: newEmail } });
    expect(again).toMatchObject({ isNewUser: false, user: { id: first.user.id } });
    expect(again.user.oauthProviders).toEqual([{ account_id: profile.accountId, email: newEmail, id: "github" }]);
    // The user's own e-mail is theirs: a provider's change does not touch it.
    expect(again.user.primaryEmail).toBe(profile.email);
  });

  it("tells providers apart: the same account id at another provider is another user", async () => {
    const profile = providerProfile();
    const github = await oauthSignIn(server, project, { profile: { ...profile, email: null } });
    const google = await oauthSignIn(server, project, { profile: { ...profile, email: null }, providerConfigId: "google" });
    expect(google.isNewUser).toBe(true);
    expect(google.user.id).not.toBe(github.user.id);
  });

  it("refuses a new user while sign-up is closed, yet signs existing ones in", async () => {
    const known = providerProfile();
    const existing = await oauthSignIn(server, project, { profile: known });
    const before = await userCount(server, project);
    await expectSignInError(server, project, { profile: providerProfile(), signUpAllowed: false }, "SIGN_UP_NOT_ENABLED", 400);
    expect(await userCount(server, project)).toBe(before);
    const again = await oauthSignIn(server, project, { profile: known, signUpAllowed: false });
    expect(again.user.id).toBe(existing.user.id);
  });
});

describe("provider tokens", () => {
  it("are stored encrypted: the access token with its expiry and scopes, and the refresh token", async () => {
    const tokens = providerTokens({ scopes: ["read:user", "user:email"] });
    const { user } = await oauthSignIn(server, project, { profile: providerProfile(), tokens });
    const [account] = (await storedAccounts(server, project)).filter((a) => a.userId === user.id);
    const rows = await storedTokens(server, account!.id);
    expect(rows.map((r) => r.kind).sort()).toEqual(["access", "refresh"]);
    const secret = server.config.serverSecret;
    for (const row of rows) {
      expect(JSON.stringify(row)).not.toContain(tokens.accessToken);
      expect(JSON.stringify(row)).not.toContain(tokens.refreshToken);
      expect(row.scopes).toEqual(["read:user", "user:email"]);
      expect(row.isValid).toBe(true);
    }
    const access = rows.find((r) => r.kind === "access")!;
    const refresh = rows.find((r) => r.kind === "refresh")!;
    expect(openProviderToken(secret, access.tokenSealed)).toBe(tokens.accessToken);
    expect(access.expiresAt?.getTime()).toBe(tokens.expiresAt!.getTime());
    expect(openProviderToken(secret, refresh.tokenSealed)).toBe(tokens.refreshToken);
    expect(refresh.expiresAt).toBeNull();
  });

  it("add the new ones at each sign-in, without a refresh token when none was given, dropping expired access tokens", async () => {
    const profile = providerProfile();
    const expired = providerTokens({ expiresAt: new Date(Date.now() - 1000) });
    const { user } = await oauthSignIn(server, project, { profile, tokens: expired });
    const [account] = (await storedAccounts(server, project)).filter((a) => a.userId === user.id);
    const next = providerTokens({ refreshToken: null, expiresAt: null });
    await oauthSignIn(server, project, { profile, tokens: next });
    const rows = await storedTokens(server, account!.id);
    const opened = rows.map((r) => [r.kind, openProviderToken(server.config.serverSecret, r.tokenSealed)]);
    expect(opened).toEqual(
      expect.arrayContaining([
        ["refresh", expired.refreshToken],
        ["access", next.accessToken],
      ]),
    );
    expect(rows).toHaveLength(2);
  });
});

describe("linking", () => {
  it("adds the account to the user, signing in, then refreshes its tokens when linked again", async () => {
    const owner = await signUpUser(server, project);
    const profile = providerProfile();
    const linked = await oauthSignIn(server, project, { profile, type: "link", userId: owner.userId });
    expect(linked).toMatchObject({ isNewUser: false, user: { id: owner.userId } });
    const [account] = await storedAccounts(server, project, profile.accountId);
    expect(account).toMatchObject({ userId: owner.userId, allowSignIn: true, allowConnectedAccounts: true });
    const again = await oauthSignIn(server, project, { profile, type: "link", userId: owner.userId });
    expect(again.user.id).toBe(owner.userId);
    expect(await storedAccounts(server, project, profile.accountId)).toHaveLength(1);
    expect(await storedTokens(server, account!.id)).toHaveLength(4);
    // The linked account now signs the user in.
    expect((await oauthSignIn(server, project, { profile })).user.id).toBe(owner.userId);
  });

  it("adds a second account of a provider the user already signs in with as a connected account only", async () => {
    const owner = await signUpUser(server, project);
    const first = providerProfile();
    const second = providerProfile();
    await oauthSignIn(server, project, { profile: first, type: "link", userId: owner.userId });
    await oauthSignIn(server, project, { profile: second, type: "link", userId: owner.userId });
    const [row] = await storedAccounts(server, project, second.accountId);
    expect(row).toMatchObject({ userId: owner.userId, allowSignIn: false, allowConnectedAccounts: true });
    // Not a way in: signing in with it makes a new user.
    expect((await oauthSignIn(server, project, { profile: { ...second, email: null } })).isNewUser).toBe(true);
  });

  it("refuses an account that signs another user in, changing nothing", async () => {
    const profile = providerProfile();
    const other = await oauthSignIn(server, project, { profile });
    const owner = await signUpUser(server, project);
    await expectSignInError(
      server,
      project,
      { profile, type: "link", userId: owner.userId },
      "OAUTH_CONNECTION_ALREADY_CONNECTED_TO_ANOTHER_USER",
      409,
    );
    const rows = await storedAccounts(server, project, profile.accountId);
    expect(rows.map((r) => r.userId)).toEqual([other.user.id]);
    expect((await serverUser(server, project, owner.userId)).oauth_providers).toEqual([]);
  });

  it("turns a connected-only account the user switched off back into a connected account", async () => {
    const owner = await signUpUser(server, project);
    const profile = providerProfile();
    await oauthSignIn(server, project, { profile, type: "link", userId: owner.userId });
    const [row] = await storedAccounts(server, project, profile.accountId);
    const off = await server.request(`/oauth-providers/${owner.userId}/${row!.id}`, {
      method: "PATCH",
      as: project.server,
      body: { allow_connected_accounts: false },
    });
    expect(off.status, off.text).toBe(200);
    await oauthSignIn(server, project, { profile, type: "link", userId: owner.userId });
    expect((await storedAccounts(server, project, profile.accountId))[0]!.allowConnectedAccounts).toBe(true);
  });

  it("answers USER_NOT_FOUND when the linking user is gone", async () => {
    await expectSignInError(server, project, { profile: providerProfile(), type: "link", userId: UNKNOWN_UUID }, "USER_NOT_FOUND", 404);
  });
});

describe("an anonymous user signing in", () => {
  async function anonymousUser(p: Project): Promise<string> {
    const res = await server.request("/auth/anonymous/sign-up", { method: "POST", as: p.client });
    expect(res.status, res.text).toBe(200);
    return res.body.user_id;
  }

  it("is upgraded in place: same id, the provider's e-mail and name, the placeholder team renamed", async () => {
    const anonId = await anonymousUser(project);
    const profile = providerProfile();
    const { user, isNewUser } = await oauthSignIn(server, project, { profile, userId: anonId });
    expect(isNewUser).toBe(true);
    expect(user.id).toBe(anonId);
    const json = await serverUser(server, project, anonId);
    expect(json).toMatchObject({
      is_anonymous: false,
      primary_email: profile.email,
      primary_email_verified: true,
      primary_email_auth_enabled: true,
      display_name: profile.displayName,
      oauth_providers: [{ account_id: profile.accountId, email: profile.email, id: "github" }],
    });
    expect(json.selected_team.display_name).toBe(`${profile.displayName}'s Team`);
  });

  it("is upgraded even when the provider gives no e-mail", async () => {
    const anonId = await anonymousUser(project);
    const { user } = await oauthSignIn(server, project, { profile: providerProfile({ email: null }), userId: anonId });
    expect(user).toMatchObject({ id: anonId, isAnonymous: false, primaryEmail: null });
  });

  it("is not upgraded while sign-up is closed", async () => {
    const anonId = await anonymousUser(project);
    await expectSignInError(
      server,
      project,
      { profile: providerProfile(), userId: anonId, signUpAllowed: false },
      "SIGN_UP_NOT_ENABLED",
      400,
    );
    expect((await serverUser(server, project, anonId)).is_anonymous).toBe(true);
  });

  it("is left alone when the provider account already signs someone in", async () => {
    const profile = providerProfile();
    const existing = await oauthSignIn(server, project, { profile });
    const anonId = await anonymousUser(project);
    const { user, isNewUser } = await oauthSignIn(server, project, { profile, userId: anonId });
    expect({ id: user.id, isNewUser }).toEqual({ id: existing.user.id, isNewUser: false });
    expect((await serverUser(server, project, anonId)).is_anonymous).toBe(true);
  });

  it("only counts when anonymous: a signed-in user's id gets a new user", async () => {
    const someone = await signUpUser(server, project);
    const { user, isNewUser } = await oauthSignIn(server, project, { profile: providerProfile(), userId: someone.userId });
    expect(isNewUser).toBe(true);
    expect(user.id).not.toBe(someone.userId);
  });
});

describe("a provider e-mail someone already signs in with", () => {
  let linkMethod: Project;
  let raiseError: Project;
  let allowDuplicates: Project;
  beforeAll(async () => {
    const strategy = (oauth_account_merge_strategy: string) =>
      createProject(server, project.owner, { ...OAUTH_CONFIG, oauth_account_merge_strategy });
    linkMethod = await strategy("link_method");
    raiseError = await strategy("raise_error");
    allowDuplicates = await strategy("allow_duplicates");
  });

  async function expectRefused(p: Project, existingVerified: boolean, providerVerified: boolean, wouldWork: boolean) {
    const email = uniqueEmail("merge");
    const existing = await passwordUser(p, email, existingVerified);
    const before = await userCount(server, p);
    // The provider's address differs only in case: still the same address.
    const profile = providerProfile({ email: email.toUpperCase(), emailVerified: providerVerified });
    const error = await expectSignInError(server, p, { profile }, "CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE", 409);
    expect(error.details).toEqual({
      type: "email",
      contact_channel_value: email.toUpperCase(),
      would_work_if_email_was_verified: wouldWork,
    });
    expect(await userCount(server, p)).toBe(before);
    expect(await storedAccounts(server, p, profile.accountId)).toEqual([]);
    expect((await serverUser(server, p, existing.userId)).oauth_providers).toEqual([]);
  }

  describe("link_method", () => {
    it("adds the account to that user when both sides verified the address", async () => {
      const email = uniqueEmail("merge");
      const existing = await passwordUser(linkMethod, email, true);
      const profile = providerProfile({ email, emailVerified: true });
      const { user, isNewUser } = await oauthSignIn(server, linkMethod, { profile });
      expect({ id: user.id, isNewUser }).toEqual({ id: existing.userId, isNewUser: false });
      expect(user.oauthProviders).toEqual([{ account_id: profile.accountId, email, id: "github" }]);
      const [row] = await storedAccounts(server, linkMethod, profile.accountId);
      expect(row).toMatchObject({ allowSignIn: true, allowConnectedAccounts: true });
      // From now on the account itself signs the user in.
      const again = await oauthSignIn(server, linkMethod, { profile: { ...profile, email: null } });
      expect(again.user.id).toBe(existing.userId);
    });

    it("works while sign-up is closed: nobody new is created", async () => {
      const email = uniqueEmail("merge");
      const existing = await passwordUser(linkMethod, email, true);
      const { user } = await oauthSignIn(server, linkMethod, { profile: providerProfile({ email }), signUpAllowed: false });
      expect(user.id).toBe(existing.userId);
    });

    it("adds a second account of a provider the user signs in with, without sign-in", async () => {
      const email = uniqueEmail("merge");
      const existing = await passwordUser(linkMethod, email, true);
      await oauthSignIn(server, linkMethod, { profile: providerProfile({ email: null }), type: "link", userId: existing.userId });
      const profile = providerProfile({ email });
      const { user } = await oauthSignIn(server, linkMethod, { profile });
      expect(user.id).toBe(existing.userId);
      expect((await storedAccounts(server, linkMethod, profile.accountId))[0]).toMatchObject({ allowSignIn: false });
      // The address still leads there, and the row is reused rather than added twice.
      expect((await oauthSignIn(server, linkMethod, { profile })).user.id).toBe(existing.userId);
      expect(await storedAccounts(server, linkMethod, profile.accountId)).toHaveLength(1);
    });

    it("refuses when the existing address is unverified (it would work once verified)", () => expectRefused(linkMethod, false, true, true));
    it("refuses when the provider did not verify the address", () => expectRefused(linkMethod, true, false, false));
    it("refuses when neither side verified it", () => expectRefused(linkMethod, false, false, true));
  });

  describe("raise_error", () => {
    it("refuses even when both sides verified the address", () => expectRefused(raiseError, true, true, false));
    it("refuses when the provider did not verify it", () => expectRefused(raiseError, true, false, false));
    it("refuses when the existing address is unverified", () => expectRefused(raiseError, false, true, false));
    it("refuses when neither side verified it", () => expectRefused(raiseError, false, false, false));
  });

  describe("allow_duplicates", () => {
    for (const [existingVerified, providerVerified] of [
      [true, true],
      [false, false],
      [true, false],
      [false, true],
    ] as const) {
      it(`creates a second user whose e-mail does not sign in (existing ${existingVerified ? "" : "un"}verified, provider ${providerVerified ? "" : "un"}verified)`, async () => {
        const email = uniqueEmail("merge");
        const existing = await passwordUser(allowDuplicates, email, existingVerified);
        const profile = providerProfile({ email, emailVerified: providerVerified });
        const { user, isNewUser } = await oauthSignIn(server, allowDuplicates, { profile });
        expect(isNewUser).toBe(true);
        expect(user.id).not.toBe(existing.userId);
        expect(await serverUser(server, allowDuplicates, user.id)).toMatchObject({
          primary_email: email,
          primary_email_verified: providerVerified,
          primary_email_auth_enabled: false,
        });
        expect(await serverUser(server, allowDuplicates, existing.userId)).toMatchObject({
          primary_email_auth_enabled: true,
          oauth_providers: [],
        });
        expect((await oauthSignIn(server, allowDuplicates, { profile })).user.id).toBe(user.id);
      });
    }
  });

  it("an address that is someone's primary e-mail but does not sign in never merges", async () => {
    const email = uniqueEmail("merge");
    const existing = await signUpUser(server, linkMethod, email);
    const res = await server.request(`/users/${existing.userId}`, {
      method: "PATCH",
      as: linkMethod.server,
      body: { primary_email_auth_enabled: false, primary_email_verified: true },
    });
    expect(res.status, res.text).toBe(200);
    const { user, isNewUser } = await oauthSignIn(server, linkMethod, { profile: providerProfile({ email }) });
    expect(isNewUser).toBe(true);
    expect(user.id).not.toBe(existing.userId);
    expect(user.primaryEmailAuthEnabled).toBe(true);
  });

  it("follows the strategy as the project has it now", async () => {
    const p = await createProject(server, project.owner, OAUTH_CONFIG);
    const email = uniqueEmail("merge");
    await passwordUser(p, email, true);
    await patchProjectConfig(server, p, { oauth_account_merge_strategy: "raise_error" });
    await expectSignInError(
      server,
      p,
      { profile: providerProfile({ email }) },
      "CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE",
      409,
    );
  });
});
