/** The write-behind of session last-used times: survives a failed write, and writes batches of any size. */
import { and, eq, like, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessions } from "../src/db/schema/index.ts";
import { SessionActivity } from "../src/domain/sessions/activity.ts";
import { createProject, signUpUser } from "./fixtures.ts";
import { createTestServer, type TestServer } from "./harness.ts";

it("a failed write rejects that flush only; the batch is retried by the next one", async () => {
  let calls = 0;
  let failNext = true;
  const written: string[] = [];
  const db = {
    execute: async (query: unknown) => {
      calls += 1;
      if (failNext) {
        failNext = false;
        throw new Error("connection dropped");
      }
      written.push(JSON.stringify(query));
      return [] as never;
    },
  };
  const activity = new SessionActivity(db as never);
  const id = "4f6f8873-3d04-46bd-8bef-18338b1a1b4c";
  activity.touch(id, "127.0.0.1", new Date());
  await expect(activity.flush()).rejects.toThrow("connection dropped");
  await activity.flush();
  expect(calls).toBe(2);
  expect(written).toHaveLength(1);
  expect(written[0]).toContain(id);
  await activity.close();
  expect(calls).toBe(2); // nothing left pending
});

it("a chunk that fails goes back into the queue with the chunks after it, not the ones already written", async () => {
  const written: string[][] = [];
  let call = 0;
  const db = {
    execute: async (query: { queryChunks?: unknown[] }) => {
      call += 1;
      if (call === 2) throw new Error("connection dropped");
      const json = JSON.stringify(query);
      written.push([...json.matchAll(/s-(\d+)/g)].map((m) => m[0]));
      return [] as never;
    },
  };
  const activity = new SessionActivity(db as never);
  for (let i = 0; i < 4500; i++) activity.touch(`s-${i}`, null, new Date());
  await expect(activity.flush()).rejects.toThrow("connection dropped");
  expect(written).toHaveLength(1);
  const first = new Set(written[0]);
  expect(first.size).toBe(2000);
  await activity.close();
  // Retried: the failed chunk and the one after it, 2,500 sessions, none of the first 2,000 again.
  const retried = new Set(written.slice(1).flat());
  expect(retried.size).toBe(2500);
  for (const id of retried) expect(first.has(id)).toBe(false);
});

describe("on a real database", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it("writes a batch larger than PostgreSQL's parameter limit allows per statement", async () => {
    const project = await createProject(server);
    const user = await signUpUser(server, project);
    const db = server.instance.services.db;
    const count = 25_000;
    await db.execute(sql`
      insert into sessions (project_id, user_id, refresh_token_hash)
      select ${project.id}, ${user.userId}::uuid, 'bulk-' || g from generate_series(1, ${count}) as g`);
    const rows = await db
      .select({ id: sessions.id })
      .from(sessions)
      .where(and(eq(sessions.userId, user.userId), like(sessions.refreshTokenHash, "bulk-%")));
    expect(rows).toHaveLength(count);

    const activity = new SessionActivity(db);
    const at = new Date(Date.now() + 60_000);
    for (const { id } of rows) activity.touch(id, "203.0.113.9", at);
    await activity.close();

    const written = await db
      .select({ id: sessions.id })
      .from(sessions)
      .where(and(eq(sessions.userId, user.userId), eq(sessions.lastUsedAt, at), eq(sessions.lastUsedIp, "203.0.113.9")));
    expect(written).toHaveLength(count);
  });

  it("an older use never overwrites the address of a newer one", async () => {
    const project = await createProject(server);
    const user = await signUpUser(server, project);
    const db = server.instance.services.db;
    const [session] = await db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, user.userId));
    const newer = new Date(Date.now() + 120_000);
    const older = new Date(Date.now() + 60_000);
    const activity = new SessionActivity(db);
    activity.touch(session!.id, "198.51.100.1", newer);
    await activity.flush();
    activity.touch(session!.id, "198.51.100.2", older);
    await activity.close();
    const [row] = await db.select().from(sessions).where(eq(sessions.id, session!.id));
    expect(row!.lastUsedAt).toEqual(newer);
    expect(row!.lastUsedIp).toBe("198.51.100.1");
  });
});
