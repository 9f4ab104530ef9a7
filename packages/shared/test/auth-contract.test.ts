/** The auth, sessions and meta parts of the contract: the answers they allow and refuse. */
import { describe, expect, it } from "vitest";
import { allEndpoints, authEndpoints, endpointKey, metaEndpoints, sessionsEndpoints } from "../src/api/index.ts";

const refreshed = {
  access_token: "a.b.c",
  afterCallbackRedirectUrl: null,
  after_callback_redirect_url: null,
  expires_in: 600,
  scope: "legacy",
  token_type: "Bearer",
};

describe("the OAuth token endpoint's answer", () => {
  const schema = authEndpoints.oauthToken.response;

  it("is the refresh grant's, or the code grant's with a refresh token and the new-user flags", () => {
    expect(schema.safeParse(refreshed).success).toBe(true);
    expect(schema.safeParse({ ...refreshed, refresh_token: "r", is_new_user: false, newUser: false }).success).toBe(true);
  });

  it("is neither with only part of the code grant's fields, an unknown field, or another token type", () => {
    expect(schema.safeParse({ ...refreshed, refresh_token: "r" }).success).toBe(false);
    expect(schema.safeParse({ ...refreshed, id_token: "x" }).success).toBe(false);
    expect(schema.safeParse({ ...refreshed, token_type: "bearer" }).success).toBe(false);
  });

  it("takes parameters it does not know (OAuth clients send their own), unlike the other bodies", () => {
    expect(authEndpoints.oauthToken.body.safeParse({ grant_type: "refresh_token", state: "x" }).success).toBe(true);
    expect(authEndpoints.passwordSignIn.body.safeParse({ email: "a@example.com", password: "p", state: "x" }).success).toBe(false);
  });
});

describe("the anonymous users' JWKS redirect", () => {
  const location = metaEndpoints.anonymousJwks.response;

  it("leads to the project's JWKS with the anonymous keys, under either API prefix", () => {
    expect(location.safeParse("/api/v1/projects/p1/.well-known/jwks.json?include_anonymous=true").success).toBe(true);
    expect(location.safeParse("/api/latest/projects/p1/.well-known/jwks.json?include_anonymous=true").success).toBe(true);
  });

  it("never to another host, another path or without the flag", () => {
    expect(location.safeParse("https://evil.example/api/v1/projects/p1/.well-known/jwks.json?include_anonymous=true").success).toBe(false);
    expect(location.safeParse("/api/v1/projects-anonymous-users/p1/.well-known/jwks.json?include_anonymous=true").success).toBe(false);
    expect(location.safeParse("/api/v1/projects/p1/.well-known/jwks.json").success).toBe(false);
  });
});

describe("sessions", () => {
  const session = { id: "s", user_id: "u", created_at: 1, last_used_at: 2, is_impersonation: false, is_current_session: true };

  it("a session's address is optional, and nothing else is", () => {
    const list = sessionsEndpoints.listSessions.response;
    expect(list.safeParse({ items: [session], is_paginated: false }).success).toBe(true);
    expect(
      list.safeParse({ items: [{ ...session, last_used_at_end_user_ip_info: { ip: "127.0.0.1" } }], is_paginated: false }).success,
    ).toBe(true);
    const { is_current_session: _, ...withoutFlag } = session;
    expect(list.safeParse({ items: [withoutFlag], is_paginated: false }).success).toBe(false);
  });

  it("a created session's expiry is at most the longest a session may last", () => {
    const body = sessionsEndpoints.createSession.body;
    const userId = "9a1b2c3d-0000-4000-8000-000000000000";
    expect(body.safeParse({ user_id: userId, expires_in_millis: 31_708_800_000 }).success).toBe(true);
    expect(body.safeParse({ user_id: userId, expires_in_millis: 31_708_800_001 }).success).toBe(false);
  });
});

it("no two endpoints share a method and path", () => {
  const keys = allEndpoints.map(endpointKey);
  expect(keys.filter((key, i) => keys.indexOf(key) !== i)).toEqual([]);
});
