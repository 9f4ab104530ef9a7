/**
 * Each provider's user-info mapping, on answers shaped as the providers
 * document them (ids, e-mails and whether they are verified, names,
 * pictures), and which URLs each provider's profile is read from.
 */
import { OAUTH_PROVIDER_IDS, StatusError } from "@latchkey/shared";
import { describe, expect, it } from "vitest";
import { ProviderHttpError, tokenAnswerFix, type ProviderApi } from "../../src/integrations/oauth/provider.ts";
import { OAUTH_PROVIDERS } from "../../src/integrations/oauth/registry.ts";
import { appleProfile } from "../../src/integrations/oauth/providers/apple.ts";
import { bitbucketProfile } from "../../src/integrations/oauth/providers/bitbucket.ts";
import { discordProfile } from "../../src/integrations/oauth/providers/discord.ts";
import { facebookProfile } from "../../src/integrations/oauth/providers/facebook.ts";
import { githubProfile } from "../../src/integrations/oauth/providers/github.ts";
import { gitlabProfile } from "../../src/integrations/oauth/providers/gitlab.ts";
import { googleProfile } from "../../src/integrations/oauth/providers/google.ts";
import { linkedinProfile } from "../../src/integrations/oauth/providers/linkedin.ts";
import { microsoftProfile } from "../../src/integrations/oauth/providers/microsoft.ts";
import { mockProfile } from "../../src/integrations/oauth/providers/mock.ts";
import { spotifyProfile } from "../../src/integrations/oauth/providers/spotify.ts";
import { twitchProfile } from "../../src/integrations/oauth/providers/twitch.ts";
import { xProfile } from "../../src/integrations/oauth/providers/x.ts";

const SETTINGS = { clientId: "app-client-id", clientSecret: "s" };

describe("user-info mappings", () => {
  it("google: the OpenID user info", () => {
    const json = {
      sub: "110169484474386276334",
      name: "Ada Lovelace",
      given_name: "Ada",
      family_name: "Lovelace",
      picture: "https://lh3.googleusercontent.com/a/ACg8oc",
      email: "ada@gmail.com",
      email_verified: true,
      locale: "en",
    };
    expect(googleProfile(json)).toEqual({
      accountId: "110169484474386276334",
      email: "ada@gmail.com",
      emailVerified: true,
      displayName: "Ada Lovelace",
      profileImageUrl: "https://lh3.googleusercontent.com/a/ACg8oc",
    });
    expect(googleProfile({ ...json, email_verified: false }).emailVerified).toBe(false);
  });

  it("github: numeric id, the primary address of /user/emails and its verified flag", () => {
    const user = { login: "ada", id: 583231, avatar_url: "https://avatars.githubusercontent.com/u/583231?v=4", name: "Ada", email: null };
    const emails = [
      { email: "ada@old.example", primary: false, verified: true, visibility: null },
      { email: "ada@example.com", primary: true, verified: true, visibility: "public" },
    ];
    expect(githubProfile(user, emails)).toEqual({
      accountId: "583231",
      email: "ada@example.com",
      emailVerified: true,
      displayName: "Ada",
      profileImageUrl: "https://avatars.githubusercontent.com/u/583231?v=4",
    });
    expect(githubProfile(user, [{ ...emails[1], verified: false }]).emailVerified).toBe(false);
    expect(githubProfile({ ...user, name: null }, [])).toMatchObject({ email: null, emailVerified: false, displayName: null });
  });

  it("microsoft: mail, else the user principal name; never verified; no picture", () => {
    const me = {
      id: "87d349ed-44d7-43e1-9a83-5f2406dee5bd",
      displayName: "Adele Vance",
      mail: "AdeleV@contoso.com",
      userPrincipalName: "AdeleV@contoso.onmicrosoft.com",
    };
    expect(microsoftProfile(me)).toEqual({
      accountId: "87d349ed-44d7-43e1-9a83-5f2406dee5bd",
      email: "AdeleV@contoso.com",
      emailVerified: false,
      displayName: "Adele Vance",
      profileImageUrl: null,
    });
    expect(microsoftProfile({ ...me, mail: null }).email).toBe("AdeleV@contoso.onmicrosoft.com");
  });

  it("spotify: the first image; never verified", () => {
    const me = {
      id: "wizzler",
      display_name: "JM Wizzler",
      email: "email@example.com",
      images: [{ url: "https://i.scdn.co/image/ab67616d00001e02", height: 300, width: 300 }],
      country: "SE",
    };
    expect(spotifyProfile(me)).toEqual({
      accountId: "wizzler",
      email: "email@example.com",
      emailVerified: false,
      displayName: "JM Wizzler",
      profileImageUrl: "https://i.scdn.co/image/ab67616d00001e02",
    });
    expect(spotifyProfile({ ...me, images: [] }).profileImageUrl).toBeNull();
  });

  it("facebook: picture.data.url; a missing e-mail is refused in plain text", () => {
    const me = {
      id: "10158000000000000",
      name: "Ada Lovelace",
      email: "ada@example.com",
      picture: { data: { height: 50, is_silhouette: false, url: "https://platform-lookaside.fbsbx.com/p.jpg", width: 50 } },
    };
    expect(facebookProfile(me)).toEqual({
      accountId: "10158000000000000",
      email: "ada@example.com",
      emailVerified: false,
      displayName: "Ada Lovelace",
      profileImageUrl: "https://platform-lookaside.fbsbx.com/p.jpg",
    });
    expect(() => facebookProfile({ id: "1", name: "No Mail" })).toThrow(StatusError);
  });

  it("discord: global name else username; the avatar on the CDN (gif when animated)", () => {
    const me = {
      id: "80351110224678912",
      username: "nelly",
      global_name: "Nelly",
      avatar: "8342729096ea3675442027381ff50dfe",
      verified: true,
      email: "nelly@discord.com",
    };
    expect(discordProfile(me)).toEqual({
      accountId: "80351110224678912",
      email: "nelly@discord.com",
      emailVerified: true,
      displayName: "Nelly",
      profileImageUrl: "https://cdn.discordapp.com/avatars/80351110224678912/8342729096ea3675442027381ff50dfe.png",
    });
    expect(discordProfile({ ...me, global_name: null, avatar: "a_1269e74af4df7417b13759eae50c83dc" })).toMatchObject({
      displayName: "nelly",
      profileImageUrl: "https://cdn.discordapp.com/avatars/80351110224678912/a_1269e74af4df7417b13759eae50c83dc.gif",
    });
    expect(discordProfile({ ...me, avatar: null, verified: false })).toMatchObject({ profileImageUrl: null, emailVerified: false });
  });

  it("gitlab: verified when /user/emails has that address confirmed", () => {
    const user = { id: 1, username: "john_smith", name: "John Smith", email: "john@example.com", avatar_url: "https://gitlab.com/a.png" };
    const emails = [
      { id: 1, email: "john@example.com", confirmed_at: "2021-03-26T19:07:56.248Z" },
      { id: 3, email: "other@example.com", confirmed_at: null },
    ];
    expect(gitlabProfile(user, emails)).toEqual({
      accountId: "1",
      email: "john@example.com",
      emailVerified: true,
      displayName: "John Smith",
      profileImageUrl: "https://gitlab.com/a.png",
    });
    expect(gitlabProfile({ ...user, email: "other@example.com" }, emails).emailVerified).toBe(false);
  });

  it("bitbucket: the primary address of the paged e-mail list", () => {
    const user = {
      account_id: "557058:c0b72ad0-1cb5-4018-9cdc-0cde8492c443",
      display_name: "Ada",
      links: { avatar: { href: "https://avatar-management.services.atlassian.com/a.png" } },
    };
    const emails = {
      pagelen: 10,
      values: [
        { email: "alt@example.com", is_primary: false, is_confirmed: false, type: "email" },
        { email: "ada@example.com", is_primary: true, is_confirmed: true, type: "email" },
      ],
      page: 1,
      size: 2,
    };
    expect(bitbucketProfile(user, emails)).toEqual({
      accountId: "557058:c0b72ad0-1cb5-4018-9cdc-0cde8492c443",
      email: "ada@example.com",
      emailVerified: true,
      displayName: "Ada",
      profileImageUrl: "https://avatar-management.services.atlassian.com/a.png",
    });
  });

  it("linkedin: the OpenID user info", () => {
    const json = {
      sub: "782bbtaQ",
      name: "John Doe",
      given_name: "John",
      family_name: "Doe",
      picture: "https://media.licdn-ei.com/dms/image/C5F03AQHqK8v7tB1HCQ/profile-displayphoto-shrink_100_100/0/",
      locale: "en-US",
      email: "doe@email.com",
      email_verified: true,
    };
    expect(linkedinProfile(json)).toEqual({
      accountId: "782bbtaQ",
      email: "doe@email.com",
      emailVerified: true,
      displayName: "John Doe",
      profileImageUrl: json.picture,
    });
  });

  it('apple: the ID token\'s claims; email_verified as true or "true"', () => {
    const claims = {
      iss: "https://appleid.apple.com",
      aud: "com.example.web",
      sub: "001234.56789abcdef.1234",
      email: "x7kq@privaterelay.appleid.com",
      email_verified: "true",
      is_private_email: "true",
    };
    expect(appleProfile(claims)).toEqual({
      accountId: "001234.56789abcdef.1234",
      email: "x7kq@privaterelay.appleid.com",
      emailVerified: true,
      displayName: null,
      profileImageUrl: null,
    });
    expect(appleProfile({ ...claims, email_verified: true }).emailVerified).toBe(true);
    expect(appleProfile({ ...claims, email_verified: "false" }).emailVerified).toBe(false);
  });

  it("x: data.id, name else username, no e-mail", () => {
    const json = { data: { id: "2244994945", name: "X Dev", username: "XDevelopers", profile_image_url: "https://pbs.twimg.com/p.jpg" } };
    expect(xProfile(json)).toEqual({
      accountId: "2244994945",
      email: null,
      emailVerified: false,
      displayName: "X Dev",
      profileImageUrl: "https://pbs.twimg.com/p.jpg",
    });
    expect(xProfile({ data: { ...json.data, name: "" } }).displayName).toBe("XDevelopers");
  });

  it("twitch: data[0]; its addresses are verified", () => {
    const json = {
      data: [
        {
          id: "141981764",
          login: "twitchdev",
          display_name: "TwitchDev",
          profile_image_url: "https://static-cdn.jtvnw.net/p.png",
          email: "not-real@email.com",
        },
      ],
    };
    expect(twitchProfile(json)).toEqual({
      accountId: "141981764",
      email: "not-real@email.com",
      emailVerified: true,
      displayName: "TwitchDev",
      profileImageUrl: "https://static-cdn.jtvnw.net/p.png",
    });
  });

  it("the development provider: the subject is the e-mail, verified", () => {
    expect(mockProfile({ sub: "ada@example.com", email: "ada@example.com", email_verified: true, name: "Ada" })).toEqual({
      accountId: "ada@example.com",
      email: "ada@example.com",
      emailVerified: true,
      displayName: "Ada",
      profileImageUrl: null,
    });
  });

  it("refuses an answer without an account id, and takes a malformed e-mail as none", () => {
    expect(() => googleProfile({ email: "a@b.c" })).toThrow(/no account id/);
    expect(googleProfile({ sub: "1", email: "not an address", email_verified: true })).toMatchObject({ email: null, emailVerified: false });
  });
});

/** An API that answers from recorded JSON by URL, and notes what was asked with which headers. */
function recordedApi(answers: Record<string, unknown>, failures: Record<string, number> = {}) {
  const calls: { url: string; headers: Record<string, string> }[] = [];
  const api: ProviderApi = {
    async getJson(url, headers = {}) {
      calls.push({ url, headers });
      if (failures[url]) throw new ProviderHttpError(failures[url], url);
      if (!(url in answers)) throw new Error(`unexpected GET ${url}`);
      return answers[url];
    },
  };
  return { api, calls };
}

describe("where each provider's profile is read", () => {
  it("github reads /user and /user/emails with the API version header", async () => {
    const { api, calls } = recordedApi({
      "https://api.github.com/user": { id: 1, name: "A" },
      "https://api.github.com/user/emails": [{ email: "a@example.com", primary: true, verified: true }],
    });
    const info = await OAUTH_PROVIDERS.github.userInfo({ api, idTokenClaims: undefined, settings: SETTINGS });
    expect(info.email).toBe("a@example.com");
    expect(calls.map((c) => c.headers["x-github-api-version"])).toEqual(["2022-11-28", "2022-11-28"]);
  });

  it("github without the e-mail permission: 400 in plain text naming it", async () => {
    const { api } = recordedApi({ "https://api.github.com/user": { id: 1 } }, { "https://api.github.com/user/emails": 403 });
    const failure = OAUTH_PROVIDERS.github.userInfo({ api, idTokenClaims: undefined, settings: SETTINGS });
    await expect(failure).rejects.toBeInstanceOf(StatusError);
    await expect(failure).rejects.toThrow(/"Email addresses"/);
  });

  it("twitch sends the app's client id to Helix", async () => {
    const { api, calls } = recordedApi({ "https://api.twitch.tv/helix/users": { data: [{ id: "1", email: "t@example.com" }] } });
    await OAUTH_PROVIDERS.twitch.userInfo({ api, idTokenClaims: undefined, settings: SETTINGS });
    expect(calls).toEqual([{ url: "https://api.twitch.tv/helix/users", headers: { "client-id": "app-client-id" } }]);
  });

  it("apple reads nothing: the ID token is the profile", async () => {
    const { api, calls } = recordedApi({});
    const info = await OAUTH_PROVIDERS.apple.userInfo({ api, idTokenClaims: { sub: "s1", email: "a@example.com" }, settings: SETTINGS });
    expect(info.accountId).toBe("s1");
    expect(calls).toEqual([]);
  });

  it.each([
    ["google", ["https://openidconnect.googleapis.com/v1/userinfo"]],
    ["microsoft", ["https://graph.microsoft.com/v1.0/me"]],
    ["spotify", ["https://api.spotify.com/v1/me"]],
    ["facebook", ["https://graph.facebook.com/v3.2/me?fields=id,name,email,picture.type(small)"]],
    ["discord", ["https://discord.com/api/users/@me"]],
    ["gitlab", ["https://gitlab.com/api/v4/user", "https://gitlab.com/api/v4/user/emails"]],
    ["bitbucket", ["https://api.bitbucket.org/2.0/user", "https://api.bitbucket.org/2.0/user/emails"]],
    ["linkedin", ["https://api.linkedin.com/v2/userinfo"]],
    ["x", ["https://api.x.com/2/users/me?user.fields=id,name,username,profile_image_url"]],
  ] as const)("%s reads %j", async (id, urls) => {
    const answer = { id: "1", sub: "1", account_id: "1", email: "a@example.com", data: { id: "1" }, values: [] };
    const { api, calls } = recordedApi(
      Object.fromEntries(urls.map((url) => [url, url.endsWith("emails") && id === "gitlab" ? [] : answer])),
    );
    const info = await OAUTH_PROVIDERS[id].userInfo({ api, idTokenClaims: undefined, settings: SETTINGS });
    expect(info.accountId).toBe("1");
    expect(calls.map((c) => c.url)).toEqual(urls);
  });
});

describe("token responses outside the standard", () => {
  it("github's 200 with an error becomes a 400, twitch's scope array a string", () => {
    expect(OAUTH_PROVIDERS.github.normalizeTokenResponse!(200, { error: "bad_verification_code" }).status).toBe(400);
    expect(OAUTH_PROVIDERS.github.normalizeTokenResponse!(200, { access_token: "t" }).status).toBe(200);
    expect(OAUTH_PROVIDERS.twitch.normalizeTokenResponse!(200, { access_token: "t", scope: ["a", "b"] }).json.scope).toBe("a b");
  });

  it("keeps the ID token only for the provider whose profile it is (apple); the others' are dropped unread", () => {
    const answer = { access_token: "t", token_type: "Bearer", id_token: "header.claims.signature" };
    for (const id of OAUTH_PROVIDER_IDS) {
      const fix = tokenAnswerFix(OAUTH_PROVIDERS[id]);
      const fixed = fix ? fix(200, answer).json : answer;
      expect(fixed.id_token, id).toBe(id === "apple" ? answer.id_token : undefined);
      expect(fixed.access_token, id).toBe("t");
    }
    // A provider's own fix still applies after the ID token is dropped.
    expect(tokenAnswerFix(OAUTH_PROVIDERS.github)!(200, { error: "bad_verification_code", id_token: "x" })).toEqual({
      status: 400,
      json: { error: "bad_verification_code" },
    });
  });
});
