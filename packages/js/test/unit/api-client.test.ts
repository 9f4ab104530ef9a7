import { afterEach, describe, expect, it, vi } from "vitest";
import { KnownError, KnownErrors, StatusError } from "@latchkey/shared/known-errors/index";
import { ConnectionError, HttpError, KnownErrorMismatchError } from "../../src/errors.ts";
import { Session } from "../../src/session/session.ts";
import { SDK_VERSION } from "../../src/version.ts";
import { BASE, jsonResponse, knownErrorResponse, makeAccessToken, settle, setup } from "./helpers.ts";

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe("ApiClient requests", () => {
  it("prefixes /api/v1, adds the query string and skips null/undefined parameters", async () => {
    const { client, calls } = setup([jsonResponse({ ok: true })], { baseUrl: `${BASE}//` });
    const body = await client.send("/users", { accessType: "client", query: { limit: 5, desc: true, cursor: null, q: undefined } });
    expect(body).toEqual({ ok: true });
    expect(calls[0]?.url).toBe(`${BASE}/api/v1/users?limit=5&desc=true`);
    expect(calls[0]?.init.method).toBe("GET");
    expect(calls[0]?.init.body).toBeUndefined();
  });

  it("sends client headers without secret keys, and no content-type without a body", async () => {
    const { client, calls } = setup([jsonResponse({})], {
      publishableClientKey: "pck",
      secretServerKey: "ssk",
      superSecretAdminKey: "sak",
    });
    await client.send("/x", { accessType: "client" });
    expect(calls[0]?.init.headers).toEqual({
      "x-stack-project-id": "proj-1",
      "x-stack-access-type": "client",
      "x-stack-client-version": SDK_VERSION,
      "x-stack-publishable-client-key": "pck",
    });
  });

  it("sends the secret server key for server access but not the admin key", async () => {
    const { client, calls } = setup([jsonResponse({})], {
      publishableClientKey: "pck",
      secretServerKey: "ssk",
      superSecretAdminKey: "sak",
    });
    await client.send("/x", { accessType: "server" });
    const headers = calls[0]!.init.headers;
    expect(headers["x-stack-access-type"]).toBe("server");
    expect(headers["x-stack-secret-server-key"]).toBe("ssk");
    expect(headers).not.toHaveProperty("x-stack-super-secret-admin-key");
  });

  it("sends both secret keys for admin access", async () => {
    const { client, calls } = setup([jsonResponse({})], { secretServerKey: "ssk", superSecretAdminKey: "sak" });
    await client.send("/x", { accessType: "admin" });
    const headers = calls[0]!.init.headers;
    expect(headers["x-stack-access-type"]).toBe("admin");
    expect(headers["x-stack-secret-server-key"]).toBe("ssk");
    expect(headers["x-stack-super-secret-admin-key"]).toBe("sak");
  });

  it("sends a JSON body with content-type, the session's access token and per-call headers", async () => {
    const token = makeAccessToken(Date.now() + 3_600_000);
    const session = new Session(async () => "unused", { accessToken: token, refreshToken: "rt" });
    const { client, calls } = setup([jsonResponse({ id: 7 }, 201)], { extraRequestHeaders: { "x-extra": "1" } });
    const body = await client.send("/teams", {
      method: "post",
      accessType: "client",
      body: { name: "A" },
      session,
      headers: { "x-custom": "yes" },
    });
    expect(body).toEqual({ id: 7 });
    const init = calls[0]!.init;
    expect(init.method).toBe("POST");
    expect(init.body).toBe('{"name":"A"}');
    expect(init.headers["content-type"]).toBe("application/json");
    expect(init.headers["x-stack-access-token"]).toBe(token);
    expect(init.headers["x-extra"]).toBe("1");
    expect(init.headers["x-custom"]).toBe("yes");
  });

  it("returns text for non-JSON answers and null for an empty JSON body", async () => {
    const { client } = setup([
      new Response("plain", { headers: { "content-type": "text/plain" } }),
      new Response("", { headers: { "content-type": "application/json" } }),
    ]);
    expect(await client.send("/a", { accessType: "client" })).toBe("plain");
    expect(await client.send("/b", { accessType: "client" })).toBeNull();
  });
});

describe("ApiClient error answers", () => {
  it("rebuilds coded errors as the catalogue's classes", async () => {
    const { client } = setup([knownErrorResponse("USER_NOT_FOUND", 404, "User not found.")]);
    const { error } = await settle(client.send("/users/u1", { accessType: "server" }));
    expect(error).toBeInstanceOf(KnownErrors.UserNotFound);
    expect(error).toBeInstanceOf(KnownError);
    expect(error).toMatchObject({ code: "USER_NOT_FOUND", statusCode: 404, message: "User not found." });
  });

  it("keeps details and the family class", async () => {
    const details = { expired_at_millis: 5, project_id: "proj-1", user_id: null, refresh_token_id: null };
    const { client } = setup([knownErrorResponse("ACCESS_TOKEN_EXPIRED", 401, "expired", details)]);
    const { error } = await settle(client.send("/x", { accessType: "client" }));
    expect(error).toBeInstanceOf(KnownErrors.AccessTokenExpired);
    expect(error).toBeInstanceOf(KnownErrors.InvalidAccessToken);
    expect((error as KnownError).details).toEqual(details);
  });

  it("throws KnownErrorMismatchError when header and body codes differ", async () => {
    const { client } = setup([knownErrorResponse("USER_NOT_FOUND", 404, "x", undefined, "TEAM_NOT_FOUND")]);
    const { error } = await settle(client.send("/x", { accessType: "client" }));
    expect(error).toBeInstanceOf(KnownErrorMismatchError);
    expect((error as Error).message).toContain("USER_NOT_FOUND");
    expect((error as Error).message).toContain('"TEAM_NOT_FOUND"');
  });

  it("throws KnownErrorMismatchError when a coded answer's body is not JSON", async () => {
    const { client } = setup([new Response("<html>", { status: 404, headers: { "x-stack-known-error": "USER_NOT_FOUND" } })]);
    const { error } = await settle(client.send("/x", { accessType: "client" }));
    expect(error).toBeInstanceOf(KnownErrorMismatchError);
  });

  it("throws HttpError for a code the catalogue does not know", async () => {
    const { client } = setup([knownErrorResponse("NOT_A_REAL_CODE", 418)]);
    const { error } = await settle(client.send("/x", { accessType: "client" }));
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(418);
  });

  it("throws HttpError with status, body, method and URL for other non-2xx answers", async () => {
    const { client, fetchMock } = setup([new Response("boom", { status: 500 })]);
    const { error } = await settle(client.send("/x", { method: "PUT", accessType: "client", body: 1 }));
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 500, body: "boom", method: "PUT", url: `${BASE}/api/v1/x` });
    // The plain-status class the server throws, so one check covers both sides.
    expect(error).toBeInstanceOf(StatusError);
    expect((error as Error).message).toBe(`PUT ${BASE}/api/v1/x failed with status 500: boom`);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});

describe("ApiClient invalid access tokens", () => {
  it.each(["UNPARSABLE_ACCESS_TOKEN", "ACCESS_TOKEN_EXPIRED"])(
    "on %s marks the token expired, refreshes once and retries",
    async (code) => {
      const oldToken = makeAccessToken(Date.now() + 3_600_000, { v: 1 });
      const newToken = makeAccessToken(Date.now() + 3_600_000, { v: 2 });
      const refresher = vi.fn(async () => newToken);
      const session = new Session(refresher, { accessToken: oldToken, refreshToken: "rt" });
      const { client, calls } = setup([knownErrorResponse(code, 401), jsonResponse({ id: "me" })]);
      expect(await client.send("/users/me", { accessType: "client", session })).toEqual({ id: "me" });
      expect(refresher).toHaveBeenCalledTimes(1);
      expect(refresher).toHaveBeenCalledWith("rt");
      expect(calls.map((c) => c.init.headers["x-stack-access-token"])).toEqual([oldToken, newToken]);
      expect(session.tokens).toEqual({ accessToken: newToken, refreshToken: "rt" });
    },
  );

  it("throws the invalid-token error when no session sent a token", async () => {
    const { client, fetchMock } = setup([knownErrorResponse("UNPARSABLE_ACCESS_TOKEN", 401)]);
    const { error } = await settle(client.send("/x", { accessType: "client" }));
    expect(error).toBeInstanceOf(KnownErrors.UnparsableAccessToken);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it("does not retry errors outside the family", async () => {
    const refresher = vi.fn(async () => "never");
    const session = new Session(refresher, { accessToken: makeAccessToken(Date.now() + 3_600_000), refreshToken: "rt" });
    const { client, fetchMock } = setup([knownErrorResponse("USER_NOT_FOUND", 404)]);
    const { error } = await settle(client.send("/x", { accessType: "client", session }));
    expect(error).toBeInstanceOf(KnownErrors.UserNotFound);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(refresher).not.toHaveBeenCalled();
  });
});

describe("ApiClient.refreshAccessToken", () => {
  it("POSTs the refresh token and returns the new access token", async () => {
    const { client, calls } = setup([jsonResponse({ access_token: "new-at" })]);
    expect(await client.refreshAccessToken("rt-1", "client")).toBe("new-at");
    expect(calls[0]?.url).toBe(`${BASE}/api/v1/auth/sessions/current/refresh`);
    expect(calls[0]?.init.method).toBe("POST");
    expect(calls[0]?.init.headers["x-stack-refresh-token"]).toBe("rt-1");
  });

  it("returns null when the server refuses the refresh token", async () => {
    const { client } = setup([knownErrorResponse("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED", 401)]);
    expect(await client.refreshAccessToken("rt-1", "client")).toBeNull();
  });

  it("throws on network failure instead of returning null", async () => {
    const { client, fetchMock } = setup([new TypeError("down")]);
    await expect(client.refreshAccessToken("rt-1", "client")).rejects.toBeInstanceOf(ConnectionError);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
