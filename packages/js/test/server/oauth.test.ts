/**
 * Users' OAuth provider accounts and connected accounts through the SDK,
 * against a real server and the development OpenID provider running as its
 * own process. Users sign up through the provider over HTTP, with the server
 * tests' cookie-keeping browser (packages/server/test/oauth-fixtures.ts);
 * then the SDK reads, changes and removes their accounts and asks for their
 * provider access tokens. Starting a sign-in and finishing it on the
 * callback page need a real browser: packages/react/test/browser.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KnownErrors, OAuthProvider, Result, ServerOAuthProvider, StackServerApp } from "../../src/index.ts";
import type { Project } from "../../../server/test/fixtures.ts";
import {
  createOAuthProject,
  exchangeCode,
  signInToCode,
  signInWithProvider,
  startOAuthTestbed,
  type OAuthTestbed,
} from "../../../server/test/oauth-fixtures.ts";
import { expireAccessTokens, revokeAtProvider } from "../../../server/test/provider-token-fixtures.ts";
import { clientAppOf } from "./fixtures.ts";
import { nextSnapshot, PASSWORD, uniqueEmail } from "./support.ts";

let testbed: OAuthTestbed;
let baseUrl: string;
let project: Project;
let serverApp: StackServerApp;

beforeAll(async () => {
  testbed = await startOAuthTestbed();
  baseUrl = await testbed.server.listen();
  project = await createOAuthProject(testbed.server);
  serverApp = new StackServerApp({ baseUrl, projectId: project.id, secretServerKey: project.server.secretServerKey! });
});
afterAll(() => testbed?.close());

const keys = () => ({ id: project.id, publishableClientKey: project.client.publishableClientKey! });

/** A new user, signed up through GitHub (the development provider) as a browser does it; `app` holds their session. */
async function signedUpWithGitHub(email = uniqueEmail("oauth")) {
  const res = await signInWithProvider(testbed, project, email);
  expect(res.status, res.text).toBe(200);
  const app = clientAppOf(baseUrl, keys(), { tokenStore: { accessToken: res.body.access_token, refreshToken: res.body.refresh_token } });
  return { app, email, accessToken: res.body.access_token as string, user: await app.getUser({ or: "throw" }) };
}

async function signedUpWithPassword() {
  const app = clientAppOf(baseUrl, keys());
  const result = await app.signUpWithCredential({ email: uniqueEmail("password"), password: PASSWORD, noRedirect: true });
  expect(result.status).toBe("ok");
  return { app, user: await app.getUser({ or: "throw" }) };
}

/** Whom the provider's user-info endpoint says the access token belongs to (the development provider's ids are e-mails), or null if it refuses it. */
async function providerUserOf(accessToken: string): Promise<string | null> {
  const res = await fetch(`${testbed.provider.url}/me`, { headers: { authorization: `Bearer ${accessToken}` } });
  return res.ok ? ((await res.json()) as { sub: string }).sub : null;
}

describe("a user's provider accounts", () => {
  it("lists the GitHub account the user signed up with, on the user object and by id", async () => {
    const { user, email } = await signedUpWithGitHub();
    expect(user.oauthProviders).toEqual([{ id: "github", account_id: email, email }]);
    const [account, ...others] = await user.listOAuthProviders();
    expect(others).toEqual([]);
    expect(account).toBeInstanceOf(OAuthProvider);
    expect(account).not.toBeInstanceOf(ServerOAuthProvider);
    expect(account).toMatchObject({
      type: "github",
      providerConfigId: "github",
      userId: user.id,
      email,
      allowSignIn: true,
      allowConnectedAccounts: true,
    });
    expect("accountId" in account!).toBe(false);
    expect(await user.getOAuthProvider(account!.id)).toMatchObject({ id: account!.id, type: "github" });
    expect(await user.getOAuthProvider(randomUUID())).toBeNull();
  });

  it("a server sees any user's accounts with the user's id at the provider", async () => {
    const { user, email } = await signedUpWithGitHub();
    const serverUser = await serverApp.getUser(user.id);
    const [account, ...others] = await serverUser!.listOAuthProviders();
    expect(others).toEqual([]);
    expect(account).toBeInstanceOf(ServerOAuthProvider);
    expect(account).toMatchObject({ type: "github", userId: user.id, email, accountId: email, allowSignIn: true });
    expect(await serverUser!.getOAuthProvider(account!.id)).toMatchObject({ id: account!.id, accountId: email });
    expect(await serverUser!.getOAuthProvider(randomUUID())).toBeNull();
    expect(await serverUser!.getOAuthProvider("not-an-id")).toBeNull();
  });

  it("removes an account: it is gone from the list and from the user", async () => {
    const { app, user } = await signedUpWithGitHub();
    expect(await user.getConnectedAccount("github")).not.toBeNull();
    const [account] = await user.listOAuthProviders();
    await account!.delete();
    // The provider tokens went with it, and the app does not offer the one it had read.
    expect(await user.getConnectedAccount("github")).toBeNull();
    expect(await user.listOAuthProviders()).toEqual([]);
    expect(await user.getOAuthProvider(account!.id)).toBeNull();
    expect((await app.getUser({ or: "throw" })).oauthProviders).toEqual([]);
    expect(await (await serverApp.getUser(user.id))!.listOAuthProviders()).toEqual([]);
  });

  it("adds a provider account to a user from a server, unless another user signs in with it (an error Result)", async () => {
    const { email: takenAccount } = await signedUpWithGitHub();
    const { user } = await signedUpWithPassword();
    const refused = await serverApp.createOAuthProvider({
      userId: user.id,
      providerConfigId: "github",
      accountId: takenAccount,
      allowSignIn: true,
      allowConnectedAccounts: false,
    });
    expect(refused.status).toBe("error");
    expect(refused.status === "error" && refused.error).toBeInstanceOf(KnownErrors.OAuthProviderAccountIdAlreadyUsedForSignIn);

    const added = await serverApp.createOAuthProvider({
      userId: user.id,
      providerConfigId: "github",
      accountId: takenAccount,
      email: takenAccount,
      allowSignIn: false,
      allowConnectedAccounts: false,
    });
    expect(added.status).toBe("ok");
    if (added.status !== "ok") return;
    expect(added.data).toBeInstanceOf(ServerOAuthProvider);
    expect(added.data).toMatchObject({ type: "github", userId: user.id, accountId: takenAccount, allowSignIn: false });
    const [listed] = await user.listOAuthProviders();
    expect(listed).toMatchObject({ id: added.data.id, allowSignIn: false, allowConnectedAccounts: false });

    // The server's object acts for that user: it may change the account's id at the provider too, and remove it.
    const otherAccount = uniqueEmail("github");
    expect(await added.data.update({ accountId: otherAccount, allowSignIn: true })).toEqual({ status: "ok", data: undefined });
    const [changed] = await (await serverApp.getUser(user.id))!.listOAuthProviders();
    expect(changed).toMatchObject({ id: added.data.id, accountId: otherAccount, allowSignIn: true });
    await added.data.delete();
    expect(await (await serverApp.getUser(user.id))!.listOAuthProviders()).toEqual([]);
  });

  it("turning sign-in on for an account another user signs in with is an error Result; once that user turns theirs off, it works", async () => {
    const first = await signedUpWithGitHub();
    const second = await signedUpWithPassword();
    const created = await serverApp.createOAuthProvider({
      userId: second.user.id,
      providerConfigId: "github",
      accountId: first.email,
      allowSignIn: false,
      allowConnectedAccounts: false,
    });
    expect(created.status).toBe("ok");
    const [account] = await second.user.listOAuthProviders();

    const refused = await account!.update({ allowSignIn: true });
    expect(refused.status).toBe("error");
    expect(refused.status === "error" && refused.error).toBeInstanceOf(KnownErrors.OAuthProviderAccountIdAlreadyUsedForSignIn);
    expect((await second.user.listOAuthProviders()).map((a) => a.allowSignIn)).toEqual([false]);

    const [firstAccount] = await first.user.listOAuthProviders();
    expect(await firstAccount!.update({ allowSignIn: false })).toEqual({ status: "ok", data: undefined });
    expect(await account!.update({ allowSignIn: true })).toEqual({ status: "ok", data: undefined });
    expect((await second.user.listOAuthProviders()).map((a) => a.allowSignIn)).toEqual([true]);
    expect((await first.user.listOAuthProviders()).map((a) => a.allowSignIn)).toEqual([false]);
  });
});

describe("connected accounts", () => {
  it("gives the GitHub connection, whose access token is the provider's for this user", async () => {
    const { user, email } = await signedUpWithGitHub();
    const connection = await user.getConnectedAccount("github");
    expect(connection?.id).toBe("github");
    const { accessToken } = await connection!.getAccessToken();
    expect(await providerUserOf(accessToken)).toBe(email);
    // A server reads the same connection for the user.
    const byServer = await (await serverApp.getUser(user.id))!.getConnectedAccount("github", { or: "throw" });
    expect((await byServer!.getAccessToken()).accessToken).toBe(accessToken);
  });

  it("is null for an enabled provider the user has not connected; with or: 'throw', an error", async () => {
    const { user } = await signedUpWithGitHub();
    expect(await user.getConnectedAccount("google")).toBeNull();
    await expect(user.getConnectedAccount("google", { or: "throw" })).rejects.toThrow("The user has no connected google account.");
    // Connecting one goes through the provider's page: not here, outside a browser.
    await expect(user.getConnectedAccount("google", { or: "redirect" })).rejects.toThrow(/needs a browser/);
    const serverUser = await serverApp.getUser(user.id);
    expect(await serverUser!.getConnectedAccount("google")).toBeNull();
  });

  it("is null when the connection was not granted a scope asked for, and given for scopes it has", async () => {
    const { user } = await signedUpWithGitHub();
    expect(await user.getConnectedAccount("github", { scopes: ["email", "repo:write"] })).toBeNull();
    await expect(user.getConnectedAccount("github", { scopes: ["repo:write"], or: "throw" })).rejects.toThrow(
      "The user has no connected github account with the scopes repo:write.",
    );
    expect(await user.getConnectedAccount("github", { scopes: ["openid", "email"] })).not.toBeNull();
  });

  it("is null once the user revoked the app at the provider and the access token expired", async () => {
    const { user } = await signedUpWithGitHub();
    const [account] = await user.listOAuthProviders();
    await revokeAtProvider(testbed, account!.id);
    await expireAccessTokens(testbed.server, account!.id);
    expect(await user.getConnectedAccount("github")).toBeNull();
    expect(await (await serverApp.getUser(user.id))!.getConnectedAccount("github")).toBeNull();
  });

  it("a connection held from before the revocation throws OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE, and from then on the user has none (also for a hook showing it)", async () => {
    const { user } = await signedUpWithGitHub();
    const connection = await user.getConnectedAccount("github", { or: "throw" });
    const entry = user._connectedAccessTokenEntry("github");
    const shown = nextSnapshot(entry, (snapshot) => snapshot.status === "ok" && snapshot.value !== null);
    await shown.seen;
    const [account] = await user.listOAuthProviders();
    await revokeAtProvider(testbed, account!.id);
    await expireAccessTokens(testbed.server, account!.id);
    try {
      await expect(connection!.getAccessToken()).rejects.toBeInstanceOf(KnownErrors.OAuthConnectionDoesNotHaveRequiredScope);
      // The hook's subscriber is shown the answer read again, not the token it was shown before.
      const gone = nextSnapshot(entry, (snapshot) => snapshot.status === "ok" && snapshot.value === null);
      expect(await gone.seen).toBeNull();
      gone.unsubscribe();
      expect(await user.getConnectedAccount("github")).toBeNull();
    } finally {
      shown.unsubscribe();
    }
  });
});

describe("listConnectedAccounts and getOrLinkConnectedAccount", () => {
  /** Connects another GitHub account (its id at the development provider is its e-mail) to the user of `accessToken`. */
  async function linkGitHub(accessToken: string, email = uniqueEmail("second")): Promise<string> {
    const { code, verifier } = await signInToCode(testbed, project, email, { query: { type: "link", token: accessToken } });
    expect((await exchangeCode(testbed.server, project, { code, verifier })).status).toBe(200);
    return email;
  }

  it("lists every connected account with its provider and id there, for the user and a server", async () => {
    const { user, email, accessToken } = await signedUpWithGitHub();
    const second = await linkGitHub(accessToken);
    const accounts = await user.listConnectedAccounts();
    expect(accounts.map(({ id, provider, providerAccountId }) => ({ id, provider, providerAccountId }))).toEqual([
      { id: "github", provider: "github", providerAccountId: email },
      { id: "github", provider: "github", providerAccountId: second },
    ]);
    // Each account gives its own token.
    const [first, other] = await Promise.all(accounts.map((account) => account.getAccessToken({ scopes: ["email"] })));
    expect(await providerUserOf(Result.orThrow(first!).accessToken)).toBe(email);
    expect(await providerUserOf(Result.orThrow(other!).accessToken)).toBe(second);

    const serverAccounts = await (await serverApp.getUser(user.id))!.listConnectedAccounts();
    expect(serverAccounts.map((account) => account.providerAccountId)).toEqual([email, second]);
    expect(await providerUserOf(Result.orThrow(await serverAccounts[1]!.getAccessToken()).accessToken)).toBe(second);
  });

  it("a token with scopes the account was not granted is an error Result, not a throw", async () => {
    const { user } = await signedUpWithGitHub();
    const [account] = await user.listConnectedAccounts();
    const result = await account!.getAccessToken({ scopes: ["repo:write"] });
    expect(result.status).toBe("error");
    expect(result.status === "error" && result.error).toBeInstanceOf(KnownErrors.OAuthConnectionDoesNotHaveRequiredScope);
  });

  it("getOrLinkConnectedAccount gives the account that has the scopes, else goes to link one (a browser's job)", async () => {
    const { user, email } = await signedUpWithGitHub();
    const account = await user.getOrLinkConnectedAccount("github", { scopes: ["openid", "email"] });
    expect(account.providerAccountId).toBe(email);
    expect(await providerUserOf(Result.orThrow(await account.getAccessToken()).accessToken)).toBe(email);
    await expect(user.getOrLinkConnectedAccount("github", { scopes: ["repo:write"] })).rejects.toThrow(/needs a browser/);
    await expect(user.getOrLinkConnectedAccount("google")).rejects.toThrow(/needs a browser/);
    const serverUser = await serverApp.getUser(user.id);
    await expect(serverUser!.getOrLinkConnectedAccount("github")).rejects.toThrow(/not available for server users/);
  });

  it("a password user has none", async () => {
    const { user } = await signedUpWithPassword();
    expect(await user.listConnectedAccounts()).toEqual([]);
  });
});
