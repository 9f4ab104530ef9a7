/**
 * The request path answers synchronously when everything it needs is cached
 * (lib/maybe-async.ts), and asynchronously otherwise; both must give the
 * same answers, errors included. Also: the verified-token cache, which finds
 * tokens by the tail of their signature, never accepts a different token.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createProject, signUpUser, type EndUser, type Project, UNKNOWN_UUID } from "./fixtures.ts";
import { authHeaders, createTestServer, type TestServer } from "./harness.ts";

let server: TestServer;
let project: Project;
let user: EndUser;

beforeAll(async () => {
  server = await createTestServer();
  project = await createProject(server);
  user = await signUpUser(server, project);
});
afterAll(() => server?.close());

/** app.fetch as the Node adapter calls it: a Response, or a promise of one. */
function fetchRaw(path: string, headers: Record<string, string>, init: RequestInit = {}): Response | Promise<Response> {
  return server.instance.app.fetch(new Request(`http://localhost/api/v1${path}`, { ...init, headers }));
}

async function bodyOf(res: Response | Promise<Response>) {
  const response = await res;
  return { status: response.status, known: response.headers.get("x-stack-known-error"), text: await response.text() };
}

/**
 * Sends twice once this server has applied the cache events of every write so far (on PostgreSQL it also hears
 * its own writes announced by NOTIFY a moment after they commit, and drops what they touched once more): the
 * first answer may load what it needs, the second must come at once. Both answers are checked.
 */
async function synchronousOnceCached(
  send: () => Response | Promise<Response>,
  check: (answer: Awaited<ReturnType<typeof bodyOf>>) => void,
) {
  await server.cachesCaughtUp();
  check(await bodyOf(send()));
  const res = send();
  expect(res, "answered synchronously once cached").not.toBeInstanceOf(Promise);
  const answer = await bodyOf(res);
  check(answer);
  return answer;
}

describe("synchronous answers from cached data", () => {
  it("a cached GET /users/me is answered at once, with the same body as the first (loading) answer", async () => {
    await server.instance.services.caches.users.clear();
    const first = fetchRaw("/users/me", authHeaders(user.as));
    expect(first).toBeInstanceOf(Promise);
    const loaded = await bodyOf(first);
    expect(loaded.status).toBe(200);

    await synchronousOnceCached(
      () => fetchRaw("/users/me", authHeaders(user.as)),
      (answer) => expect(answer).toEqual(loaded),
    );
    expect(JSON.parse(loaded.text).id).toBe(user.userId);
  });

  it("after a write, the next read waits for the database and shows the change", async () => {
    const patched = await server.request("/users/me", { method: "PATCH", as: user.as, body: { display_name: "Changed" } });
    expect(patched.status).toBe(200);
    const next = fetchRaw("/users/me", authHeaders(user.as));
    expect(next).toBeInstanceOf(Promise);
    expect(JSON.parse((await bodyOf(next)).text).display_name).toBe("Changed");
    await synchronousOnceCached(
      () => fetchRaw("/users/me", authHeaders(user.as)),
      (answer) => expect(JSON.parse(answer.text).display_name).toBe("Changed"),
    );
  });

  it("errors found before any wait are answered at once, with the catalogue's code", async () => {
    const res = fetchRaw("/users/me", { "x-stack-access-type": "client" });
    expect(res).not.toBeInstanceOf(Promise);
    const answer = await bodyOf(res);
    expect(answer.status).toBe(400);
    expect(answer.known).toBe("ACCESS_TYPE_WITHOUT_PROJECT_ID");
  });

  it("errors found after a wait are answered the same way", async () => {
    const res = fetchRaw("/users/me", { "x-stack-access-type": "client", "x-stack-project-id": UNKNOWN_UUID });
    expect(res).toBeInstanceOf(Promise);
    const answer = await bodyOf(res);
    expect(answer.status).toBe(400);
    expect(answer.known).toBe("CURRENT_PROJECT_NOT_FOUND");
  });

  it("a signed-out session's token is refused at once, once its end is known", async () => {
    const signedOut = await signUpUser(server, project);
    expect((await bodyOf(fetchRaw("/users/me", authHeaders(signedOut.as)))).status).toBe(200);
    const out = await server.request("/auth/sessions/current", { method: "DELETE", as: signedOut.as });
    expect(out.status).toBe(200);
    await synchronousOnceCached(
      () => fetchRaw("/users/me", authHeaders(signedOut.as)),
      (answer) => {
        expect(answer.status).toBe(401);
        expect(answer.known).toBe("ACCESS_TOKEN_EXPIRED");
      },
    );
  });

  it("a deleted user's cached token finds no user, whichever path answers", async () => {
    const doomed = await signUpUser(server, project);
    expect((await bodyOf(fetchRaw("/users/me", authHeaders(doomed.as)))).status).toBe(200);
    const deleted = await server.request(`/users/${doomed.userId}`, { method: "DELETE", as: project.server });
    expect(deleted.status).toBe(200);
    const answer = await bodyOf(fetchRaw("/users/me", authHeaders(doomed.as)));
    expect(answer.known).toBe("CANNOT_GET_OWN_USER_WITHOUT_USER");
  });
});

describe("refresh", () => {
  const refresh = (refreshToken: string) =>
    fetchRaw(
      "/auth/sessions/current/refresh",
      { ...authHeaders(project.client), "x-stack-refresh-token": refreshToken },
      { method: "POST" },
    );

  it("a cached session is refreshed at once; a revoked one is refused at once after the revocation", async () => {
    const session = await signUpUser(server, project);
    const first = await bodyOf(refresh(session.refreshToken));
    expect(first.status).toBe(200);
    await synchronousOnceCached(
      () => refresh(session.refreshToken),
      (answer) => {
        expect(answer.status).toBe(200);
        expect(JSON.parse(answer.text).access_token.split(".")).toHaveLength(3);
      },
    );

    const signedOut = await server.request("/auth/sessions/current", {
      method: "DELETE",
      as: session.as,
      headers: { "x-stack-refresh-token": session.refreshToken },
    });
    expect(signedOut.status).toBe(200);
    const refused = await bodyOf(refresh(session.refreshToken));
    expect(refused.status).toBe(401);
    expect(refused.known).toBe("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
  });
});

describe("verified-token cache", () => {
  it("a verified token that has since expired is refused from the cache with ACCESS_TOKEN_EXPIRED", async () => {
    const fresh = await signUpUser(server, project);
    const send = () => fetchRaw("/users/me", authHeaders(fresh.as));
    await synchronousOnceCached(send, (answer) => expect(answer.status).toBe(200));
    // The clock moves past the token's lifetime.
    await server.clock.ahead(24 * 60 * 60 * 1000, async () => {
      const expired = send();
      // Found in the cache and refused there: no wait.
      expect(expired).not.toBeInstanceOf(Promise);
      const answer = await bodyOf(expired);
      expect(answer.status).toBe(401);
      expect(answer.known).toBe("ACCESS_TOKEN_EXPIRED");
      expect((await bodyOf(send())).known).toBe("ACCESS_TOKEN_EXPIRED");
    });
    // Back in the token's lifetime it is accepted again: only the clock refused it.
    expect((await bodyOf(send())).status).toBe(200);
  });

  it("a token sharing a cached token's signature tail but not its text is verified in full and refused", async () => {
    // Cache the real token.
    expect(await bodyOf(fetchRaw("/users/me", authHeaders(user.as))).then((r) => r.status)).toBe(200);
    const [header, payload, signature] = user.accessToken.split(".") as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
    const forgedPayload = Buffer.from(JSON.stringify({ ...claims, sub: "someone-else" })).toString("base64url");
    // Same last 16 characters (all of the tail the cache looks at), different signature start and payload.
    const forgedSignature = "A".repeat(signature.length - 16) + signature.slice(-16);
    for (const forged of [`${header}.${forgedPayload}.${signature}`, `${header}.${payload}.${forgedSignature}`]) {
      const answer = await bodyOf(fetchRaw("/users/me", authHeaders({ ...user.as, accessToken: forged })));
      expect(answer.status).toBe(401);
      expect(answer.known).toBe("UNPARSABLE_ACCESS_TOKEN");
    }
    // The real token is still cached and still works.
    await synchronousOnceCached(
      () => fetchRaw("/users/me", authHeaders(user.as)),
      (answer) => expect(answer.status).toBe(200),
    );
  });
});
