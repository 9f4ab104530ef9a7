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
  activity.touch(id, "127.0.0.1");
  await expect(activity.flush()).rejects.toThrow("connection dropped");
  await activity.flush();
  expect(calls).toBe(2);
  expect(written).toHaveLength(1);
  expect(written[0]).toContain(id);
  await activity.close();
  expect(calls).toBe(2); // nothing left pending
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
});
