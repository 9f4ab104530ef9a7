/**
 * Events written with the data (events/transaction.ts): recorded in the
 * transaction of the change, in outbox_events exactly when it commits, and
 * handed to this process's subscribers (caches, e-mail queue) only after the
 * commit — never before, never for a rollback.
 */
import { DEFAULT_BRANCH_ID } from "@latchkey/shared";
import { and, asc, eq, gt, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { outboxEvents } from "../src/db/schema/index.ts";
import type { DomainEvent } from "../src/events/domain-events.ts";
import { OUTBOX_EVENTS_KEPT_MILLIS } from "../src/events/retention.ts";
import { record } from "../src/events/transaction.ts";
import { findUser } from "../src/domain/users/record.ts";
import { updateUser } from "../src/domain/users/update.ts";
import { createProject, signUpUser, type EndUser, type Project } from "./fixtures.ts";
import { createTeam } from "./team-fixtures.ts";
import { createTestServer, expectKnownError, type TestServer } from "./harness.ts";

const onPostgres = process.env.LATCHKEY_TEST_DB === "postgres";

let server: TestServer;
let project: Project;
/** What the subscriber below was handed, in order. */
let seen: DomainEvent[];
/** The outbox's last id before each test: only rows after it are the test's. */
let lastId: number;

beforeAll(async () => {
  server = await createTestServer();
  project = await createProject(server);
  server.instance.services.events.subscribe((events) => seen.push(...events));
});
afterAll(() => server.close());
beforeEach(mark);

/** From here on: what the subscriber is handed and the outbox's new rows. */
async function mark(): Promise<void> {
  seen = [];
  const [row] = await server.instance.services.db.select({ id: sql<number>`coalesce(max(${outboxEvents.id}), 0)::int` }).from(outboxEvents);
  lastId = Number(row!.id);
}

/** The types and payloads written to the outbox since the test began, oldest first. */
async function written(): Promise<{ type: string; payload: unknown; projectId: string; branchId: string | null }[]> {
  return server.instance.services.db
    .select({ type: outboxEvents.type, payload: outboxEvents.payload, projectId: outboxEvents.projectId, branchId: outboxEvents.branchId })
    .from(outboxEvents)
    .where(and(gt(outboxEvents.id, lastId), eq(outboxEvents.projectId, project.id)))
    .orderBy(asc(outboxEvents.id));
}

async function userRecord(user: EndUser) {
  return (await findUser(server.instance.services.db, project.id, DEFAULT_BRANCH_ID, user.userId))!;
}

async function projectRow() {
  return (await server.instance.services.projects.get(project.id))!;
}

describe("handing events to subscribers", () => {
  it("hands nothing before the commit, and what was recorded right after it", async () => {
    const user = await signUpUser(server, project);
    await mark();
    const { events, db } = server.instance.services;
    const [row, before] = [await projectRow(), await userRecord(user)];
    await events.transaction(db, async (tx) => {
      await updateUser(tx, row, DEFAULT_BRANCH_ID, before, { displayName: "Committed" });
      expect(seen).toEqual([]);
    });
    expect(seen).toEqual([{ type: "user.updated", projectId: project.id, branchId: DEFAULT_BRANCH_ID, data: { id: user.userId } }]);
    expect(await written()).toEqual([
      { type: "user.updated", projectId: project.id, branchId: DEFAULT_BRANCH_ID, payload: { id: user.userId } },
    ]);
  });

  it("hands nothing, and writes nothing, when the transaction rolls back", async () => {
    const user = await signUpUser(server, project);
    await mark();
    const { events, db } = server.instance.services;
    const [row, before] = [await projectRow(), await userRecord(user)];
    const failure = new Error("changed my mind");
    await expect(
      events.transaction(db, async (tx) => {
        await updateUser(tx, row, DEFAULT_BRANCH_ID, before, { displayName: "Rolled back" });
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(seen).toEqual([]);
    expect(await written()).toEqual([]);
    expect((await userRecord(user)).displayName).toBeNull();
  });

  it("drops a rolled-back savepoint's events and keeps the rest of the transaction's", async () => {
    const { events, db } = server.instance.services;
    const kept: DomainEvent = { type: "team.updated", projectId: project.id, branchId: DEFAULT_BRANCH_ID, data: { id: "kept" } };
    const dropped: DomainEvent = { type: "team.updated", projectId: project.id, branchId: DEFAULT_BRANCH_ID, data: { id: "dropped" } };
    await events.transaction(db, async (tx) => {
      await record(tx, kept);
      await events
        .transaction(tx, async (savepoint) => {
          await record(savepoint, dropped);
          throw new Error("savepoint rolls back");
        })
        .catch(() => undefined);
      expect(seen).toEqual([]);
    });
    expect(seen).toEqual([kept]);
    expect((await written()).map((row) => row.payload)).toEqual([{ id: "kept" }]);
  });

  it("refuses a transaction not opened through it, whose commit it could not see", async () => {
    const { events, db } = server.instance.services;
    await expect(db.transaction((tx) => events.transaction(tx, async () => undefined))).rejects.toThrow(/Events.transaction/);
    await expect(
      db.transaction((tx) => record(tx as never, { type: "team.updated", projectId: project.id, branchId: null, data: { id: "x" } })),
    ).rejects.toThrow(/Events.transaction/);
    expect(await written()).toEqual([]);
  });
});

describe("what the endpoints record", () => {
  it("a user PATCH records user.updated; a refused one records nothing", async () => {
    const user = await signUpUser(server, project);
    await mark();
    const ok = await server.request(`/users/${user.userId}`, { method: "PATCH", as: project.server, body: { display_name: "Renamed" } });
    expect(ok.status, ok.text).toBe(200);
    const refused = await server.request(`/users/${user.userId}`, {
      method: "PATCH",
      as: project.server,
      body: { display_name: "Never", selected_team_id: crypto.randomUUID() },
    });
    expectKnownError(refused, "TEAM_NOT_FOUND", 404);
    const rows = (await written()).filter((row) => (row.payload as { id?: string }).id === user.userId);
    expect(rows.map((row) => row.type)).toEqual(["user.updated"]);
  });

  it("a sign-up records user.created and, where asked, its personal team; the creator's membership sends nothing", async () => {
    const personal = await createProject(server, project.owner, { create_team_on_sign_up: true });
    const user = await signUpUser(server, personal);
    const rows = await server.instance.services.db
      .select({ type: outboxEvents.type, payload: outboxEvents.payload })
      .from(outboxEvents)
      .where(and(gt(outboxEvents.id, lastId), eq(outboxEvents.projectId, personal.id)))
      .orderBy(asc(outboxEvents.id));
    const types = rows.map((row) => row.type);
    expect(types.slice(0, 2)).toEqual(["user.created", "team.created"]);
    expect(rows[0]!.payload).toEqual({ id: user.userId });
    expect(types).not.toContain("team_membership.created");
    expect(types).toContain("session.created");
  });

  it("a membership records team_membership.created then each default permission; a user's deletion ends each membership", async () => {
    const owner = await signUpUser(server, project);
    const member = await signUpUser(server, project);
    const team = await createTeam(server, project.server, { creator_user_id: owner.userId });
    await mark();
    const added = await server.request(`/team-memberships/${team.id}/${member.userId}`, { method: "POST", as: project.server, body: {} });
    expect(added.status, added.text).toBe(201);
    const again = await server.request(`/team-memberships/${team.id}/${member.userId}`, { method: "POST", as: project.server, body: {} });
    expectKnownError(again, "TEAM_MEMBERSHIP_ALREADY_EXISTS", 409);
    const joined = await written();
    expect(joined[0]).toMatchObject({ type: "team_membership.created", payload: { team_id: team.id, user_id: member.userId } });
    expect(joined.slice(1).map((row) => row.type)).toEqual(joined.slice(1).map(() => "team_permission.created"));
    expect(joined.length).toBeGreaterThan(1);

    await mark();
    expect((await server.request(`/users/${member.userId}`, { method: "DELETE", as: project.server })).status).toBe(200);
    expect(await written()).toEqual([
      {
        type: "user.deleted",
        projectId: project.id,
        branchId: DEFAULT_BRANCH_ID,
        payload: { id: member.userId, teams: [{ id: team.id }] },
      },
      {
        type: "team_membership.deleted",
        projectId: project.id,
        branchId: DEFAULT_BRANCH_ID,
        payload: { team_id: team.id, user_id: member.userId },
      },
    ]);
  });

  it("a mail queued hands email.queued to the queue after the commit", async () => {
    const res = await server.request("/auth/password/send-reset-code", {
      method: "POST",
      as: project.client,
      body: { email: (await signUpUser(server, project)).email, callback_url: "http://localhost:3000/handler/password-reset" },
    });
    expect(res.status, res.text).toBe(200);
    expect(seen.filter((event) => event.type === "email.queued")).toHaveLength(1);
    expect((await written()).filter((row) => row.type === "email.queued")).toHaveLength(1);
  });
});

describe("housekeeping", () => {
  it("deletes events older than the retention period and keeps the others", async () => {
    const { events, db, housekeeping } = server.instance.services;
    const event: DomainEvent = { type: "team.updated", projectId: project.id, branchId: DEFAULT_BRANCH_ID, data: { id: "aging" } };
    await events.transaction(db, (tx) => record(tx, event));
    const [aging] = await db.select({ createdAt: outboxEvents.createdAt }).from(outboxEvents).where(gt(outboxEvents.id, lastId));
    const createdAt = aging!.createdAt;
    // A round of housekeeping with the server's clock at `at` (the rows are dated by the database, in real time).
    const roundAt = (at: number) => server.clock.ahead(at - server.clock.now(), () => housekeeping.run());
    await roundAt(createdAt.getTime() + OUTBOX_EVENTS_KEPT_MILLIS - 60_000);
    expect(await written()).toHaveLength(1);
    await roundAt(createdAt.getTime() + OUTBOX_EVENTS_KEPT_MILLIS + 60_000);
    expect(await written()).toEqual([]);
  });

  it("keeps an old event still pending for the webhook fan-out, however old", async () => {
    // A server of its own whose runner is stopped: no fan-out takes the row while housekeeping looks at it.
    const own = await createTestServer();
    try {
      const { db, housekeeping, jobs } = own.instance.services;
      await jobs.close();
      const [row] = await db
        .insert(outboxEvents)
        .values({ projectId: "a-project", branchId: DEFAULT_BRANCH_ID, type: "team.deleted", payload: { id: "waiting" }, pending: true })
        .returning();
      await own.clock.ahead(row!.createdAt.getTime() + OUTBOX_EVENTS_KEPT_MILLIS + 60_000 - own.clock.now(), () => housekeeping.run());
      const kept = await db.select().from(outboxEvents).where(eq(outboxEvents.id, row!.id));
      expect(kept.map((e) => e.pending)).toEqual([true]);
    } finally {
      await own.close();
    }
  });
});

// PGlite is one connection: a read waits for an open transaction to end, so there is no race to lose there.
describe.runIf(onPostgres)("a read racing a write on the same replica", () => {
  it("ends with the new value cached, although the read cached the old one before the commit", async () => {
    const user = await signUpUser(server, project);
    const me = () => server.request("/users/me", { as: user.as });
    expect((await me()).body.display_name).toBeNull(); // cached now
    const { events, db } = server.instance.services;
    const [row, before] = [await projectRow(), await userRecord(user)];
    await events.transaction(db, async (tx) => {
      await updateUser(tx, row, DEFAULT_BRANCH_ID, before, { displayName: "After the race" });
      // Another connection's read, before the commit, finds nothing cached: it reads (and caches) the old name.
      server.instance.services.caches.users.clear();
      expect((await me()).body.display_name).toBeNull();
    });
    expect((await me()).body.display_name).toBe("After the race");
  });
});

it.runIf(!onPostgres)("the race runs on PostgreSQL only (embedded PGlite serializes every transaction)", () => {
  expect(onPostgres).toBe(false);
});
