/**
 * POST /user-api-keys/check and /team-api-keys/check: the key's object for a
 * key that may be used, else each failure in its order (not found → wrong
 * type → revoked → expired); a revocation stops every check once it has
 * returned, though checks are answered from the cache; when a key was last
 * accepted is written behind, at most once a minute.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiKeyUsage } from "../src/capabilities/user-team-api-keys/domain/usage.ts";
import { createProject, patchProjectConfig, signUpUser, type EndUser, type Project } from "./fixtures.ts";
import { createTestServer, expectKnownError, type Auth, type TestServer } from "./harness.ts";
import { createTeam } from "./permission-fixtures.ts";

let server: TestServer;
let project: Project;
let alice: EndUser;
let teamId: string;

beforeAll(async () => {
  server = await createTestServer();
  project = await createProject(server);
  await patchProjectConfig(server, project, { allow_user_api_keys: true, allow_team_api_keys: true });
  alice = await signUpUser(server, project);
  teamId = await createTeam(server, project.id, alice.userId);
});
afterAll(() => server.close());

async function userKey(body: Record<string, unknown> = {}) {
  const res = await server.request("/user-api-keys", {
    method: "POST",
    as: project.server,
    body: { user_id: alice.userId, description: "k", expires_at_millis: null, ...body },
  });
  expect(res.status, res.text).toBe(200);
  return res.body as { id: string; value: string };
}

async function teamKey(body: Record<string, unknown> = {}) {
  const res = await server.request("/team-api-keys", {
    method: "POST",
    as: project.server,
    body: { team_id: teamId, description: "k", expires_at_millis: null, ...body },
  });
  expect(res.status, res.text).toBe(200);
  return res.body as { id: string; value: string };
}

const check = (kind: "user" | "team", apiKey: string, as: Auth = project.server) =>
  server.request(`/${kind}-api-keys/check`, { method: "POST", as, body: { api_key: apiKey } });

const revoke = (kind: "user" | "team", id: string) =>
  server.request(`/${kind}-api-keys/${id}`, {
    method: "PATCH",
    as: project.server,
    body: { revoked: true },
    query: kind === "team" ? { team_id: teamId } : {},
  });

describe("a key that may be used", () => {
  it("answers the key's read object, for a user key and a team key", async () => {
    const key = await userKey({ description: "the CLI" });
    const res = await check("user", key.value);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      created_at_millis: expect.any(Number),
      description: "the CLI",
      id: key.id,
      is_public: false,
      type: "user",
      user_id: alice.userId,
      value: { last_four: key.value.slice(-4) },
    });
    const team = await teamKey();
    const ok = await check("team", team.value, project.admin);
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body).toMatchObject({ id: team.id, type: "team", team_id: teamId });
  });

  it("a key expiring later is accepted until then", async () => {
    const key = await userKey({ expires_at_millis: server.clock.now() + 60_000 });
    expect((await check("user", key.value)).status).toBe(200);
    await server.clock.ahead(61_000, async () => expectKnownError(await check("user", key.value), "API_KEY_EXPIRED", 401));
  });

  it("is for servers: a client may not check", async () => {
    const key = await userKey();
    expectKnownError(await check("user", key.value, alice.as), "INSUFFICIENT_ACCESS_TYPE", 401);
  });
});

describe("API_KEY_NOT_FOUND", () => {
  it("for a string that is no key", async () => {
    for (const value of ["", "sk_", "hello", "x".repeat(102)]) expectKnownError(await check("user", value), "API_KEY_NOT_FOUND", 404);
  });

  it("for a typo (the checksum no longer matches)", async () => {
    const key = await userKey();
    const typo = key.value.slice(0, 10) + (key.value[10] === "a" ? "b" : "a") + key.value.slice(11);
    expectKnownError(await check("user", typo), "API_KEY_NOT_FOUND", 404);
  });

  it("for a well-formed key whose secret is wrong", async () => {
    const key = await userKey();
    // Another key's string with this key's id spliced in, checksum recomputed: well-formed, not this key.
    const { crc32 } = await import("../src/capabilities/user-team-api-keys/domain/key-string.ts");
    const other = await userKey();
    const body = other.value.slice(0, 48) + key.id.replaceAll("-", "") + other.value.slice(80, -8);
    const forged = body + crc32(Buffer.from(body)).toString(16).padStart(8, "0");
    expectKnownError(await check("user", forged), "API_KEY_NOT_FOUND", 404);
    expect((await check("user", key.value)).status).toBe(200);
  });

  it("for a key of another project", async () => {
    const key = await userKey();
    const other = await createProject(server);
    await patchProjectConfig(server, other, { allow_user_api_keys: true });
    expectKnownError(await check("user", key.value, other.server), "API_KEY_NOT_FOUND", 404);
  });

  it("before the other verdicts: a revoked key of another project is not found", async () => {
    const key = await userKey();
    await revoke("user", key.id);
    const other = await createProject(server);
    await patchProjectConfig(server, other, { allow_user_api_keys: true });
    expectKnownError(await check("user", key.value, other.server), "API_KEY_NOT_FOUND", 404);
  });
});

describe("WRONG_API_KEY_TYPE", () => {
  it("a team key checked as a user key, and the other way round, with the details", async () => {
    const team = await teamKey();
    const res = await check("user", team.value);
    expectKnownError(res, "WRONG_API_KEY_TYPE", 400);
    expect(res.body.details).toEqual({ expected_type: "user", actual_type: "team" });
    const user = await userKey();
    const back = await check("team", user.value);
    expectKnownError(back, "WRONG_API_KEY_TYPE", 400);
    expect(back.body.details).toEqual({ expected_type: "team", actual_type: "user" });
  });

  it("comes before revoked", async () => {
    const team = await teamKey();
    await revoke("team", team.id);
    expectKnownError(await check("user", team.value), "WRONG_API_KEY_TYPE", 400);
  });
});

describe("API_KEY_REVOKED", () => {
  it("once revoked, for good; before expired", async () => {
    const key = await userKey({ expires_at_millis: server.clock.now() - 1000 });
    expectKnownError(await check("user", key.value), "API_KEY_EXPIRED", 401);
    await revoke("user", key.id);
    expectKnownError(await check("user", key.value), "API_KEY_REVOKED", 401);
  });

  it("a cached key stops passing as soon as the revocation returns", async () => {
    const key = await teamKey();
    expect((await check("team", key.value)).status).toBe(200);
    expect(server.instance.services.caches.apiKeys.size).toBeGreaterThan(0);
    expect((await revoke("team", key.id)).status).toBe(200);
    expectKnownError(await check("team", key.value), "API_KEY_REVOKED", 401);
  });

  it("checks racing a revocation: none started after it returned passes", async () => {
    const key = await userKey();
    expect((await check("user", key.value)).status).toBe(200);
    let revoked = false;
    const results: { startedAfter: boolean; status: number }[] = [];
    // Each checker keeps checking until it has made ten checks that started after the revocation returned.
    // A cached check never waits for I/O: each turn yields to the event loop, so the revocation's queries run.
    const checker = async () => {
      for (let after = 0, turns = 0; after < 10 && turns < 10_000; turns++) {
        await new Promise((resolve) => setImmediate(resolve));
        const startedAfter = revoked;
        const res = await check("user", key.value);
        results.push({ startedAfter, status: res.status });
        if (startedAfter) after++;
      }
    };
    const revocation = (async () => {
      expect((await revoke("user", key.id)).status).toBe(200);
      revoked = true;
    })();
    await Promise.all([checker(), checker(), checker(), revocation]);
    expect(results.filter((r) => r.startedAfter).map((r) => r.status)).toEqual(Array(30).fill(401));
    expect(results.filter((r) => !r.startedAfter).every((r) => r.status === 200 || r.status === 401)).toBe(true);
  });
});

describe("API_KEY_EXPIRED", () => {
  it("for a key past its expiry, created so", async () => {
    const key = await teamKey({ expires_at_millis: server.clock.now() - 1 });
    expectKnownError(await check("team", key.value), "API_KEY_EXPIRED", 401);
  });
});

describe("last_used_at_millis", () => {
  it("is written behind, at most once a minute per key", async () => {
    const key = await userKey();
    const read = async () => (await server.request(`/user-api-keys/${key.id}`, { as: project.server })).body.last_used_at_millis;
    expect(await read()).toBeUndefined();
    server.clock.freeze();
    try {
      const first = server.clock.now();
      expect((await check("user", key.value)).status).toBe(200);
      expect(await read()).toBe(first);
      server.clock.advance(30_000);
      expect((await check("user", key.value)).status).toBe(200);
      expect(await read()).toBe(first);
      server.clock.advance(31_000);
      expect((await check("user", key.value)).status).toBe(200);
      expect(await read()).toBe(first + 61_000);
    } finally {
      server.clock.resume();
    }
  });

  it("is written in statements of at most 2,000 keys", async () => {
    const statements: number[] = [];
    const db = {
      execute: async (query: unknown) => {
        statements.push(new Set(JSON.stringify(query).match(/k-\d+/g)).size);
        return [] as never;
      },
    };
    const usage = new ApiKeyUsage(db as never);
    for (let i = 0; i < 4500; i++) usage.touch(`k-${i}`, server.clock.now());
    await usage.close();
    expect(statements).toEqual([2000, 2000, 500]);
  });

  it("a refused check is no use", async () => {
    const key = await userKey();
    await revoke("user", key.id);
    await check("user", key.value);
    const res = await server.request(`/user-api-keys/${key.id}`, { as: project.server });
    expect(res.body.last_used_at_millis).toBeUndefined();
  });
});
