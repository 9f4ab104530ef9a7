/**
 * PostgreSQL dropping connections under requests (pg_terminate_backend, as a
 * restart or failover does) and becoming unreachable. A read in flight is
 * retried once on a fresh connection; a write is never run twice and answers
 * 503 with Retry-After; nothing is ever a 500, and nothing answered 200 is
 * lost. PostgreSQL only: an embedded database does not lose its connection.
 */
import { connect, createServer, type Server, type Socket } from "node:net";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createProject, PASSWORD, signUpUser, uniqueEmail, type Project } from "./fixtures.ts";
import { createTestServer, type TestResponse, type TestServer } from "./harness.ts";

const onPostgres = process.env.LATCHKEY_TEST_DB === "postgres";

function expectUnavailable(res: TestResponse): void {
  expect(res.status, res.text).toBe(503);
  expect(res.headers.get("retry-after")).toMatch(/^[1-9][0-9]*$/);
}

/** 200, or 503 with Retry-After: what a request may answer while the database drops connections. */
function expectAnsweredOrUnavailable(res: TestResponse): void {
  if (res.status === 503) expectUnavailable(res);
  else expect(res.status, res.text).toBe(200);
}

describe.runIf(onPostgres)("PostgreSQL terminating the server's connections", () => {
  let server: TestServer;
  let project: Project;
  /** The test's own connections to the server's database: one to kill with, one to hold a lock with. */
  let killer: postgres.Sql;
  let locker: postgres.Sql;

  beforeAll(async () => {
    server = await createTestServer();
    project = await createProject(server);
    killer = postgres(server.databaseUrl!, { max: 1, onnotice: () => {} });
    locker = postgres(server.databaseUrl!, { max: 1, onnotice: () => {} });
  });
  afterAll(async () => {
    await killer?.end();
    await locker?.end();
    await server?.close();
  });

  /** Every connection to the database but the test's own; resolves with how many were terminated. */
  async function terminateAll(): Promise<number> {
    const rows = await killer`
      select pg_terminate_backend(pid) as ended from pg_stat_activity
      where datname = current_database() and pid <> pg_backend_pid() and pid <> ${await lockerPid()}`;
    return rows.filter((row) => row.ended).length;
  }

  let lockerPidCache: number | null = null;
  async function lockerPid(): Promise<number> {
    lockerPidCache ??= (await locker`select pg_backend_pid() as pid`)[0]!.pid as number;
    return lockerPidCache;
  }

  /**
   * Runs `request` while the users table is locked, so its query waits in PostgreSQL; terminates the
   * connection it waits on, then lets the lock go. Resolves with the request's answer.
   */
  async function terminatedWhileWaiting(request: () => Promise<TestResponse>): Promise<TestResponse> {
    const reserved = await locker.reserve();
    try {
      await reserved`begin`;
      await reserved`lock table users in access exclusive mode`;
      const answer = request();
      let waiting: number[] = [];
      await expect
        .poll(async () => {
          const rows = await killer`
            select pid from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`;
          waiting = rows.map((row) => row.pid as number);
          return waiting.length;
        })
        .toBeGreaterThan(0);
      await killer`select pg_terminate_backend(pid) from unnest(${waiting}::int[]) as pid`;
      await reserved`rollback`;
      return await answer;
    } finally {
      reserved.release();
    }
  }

  it("retries a read whose connection was terminated under it: the caller gets its answer", async () => {
    const user = await signUpUser(server, project);
    const res = await terminatedWhileWaiting(() => server.request(`/users/${user.userId}`, { as: project.server }));
    expect(res.status, res.text).toBe(200);
    expect(res.body.id).toBe(user.userId);
    expect(server.logs.some((line) => line.msg === "database connection lost; the read is retried")).toBe(true);
  });

  it("never runs a write twice: a sign-up cut off answers 503 with Retry-After, and can be sent again", async () => {
    const email = uniqueEmail("cut-off");
    const signUp = () =>
      server.request("/auth/password/sign-up", { method: "POST", as: project.client, body: { email, password: PASSWORD } });
    expectUnavailable(await terminatedWhileWaiting(signUp));
    // The transaction was rolled back with its connection: the same sign-up goes through.
    const again = await signUp();
    expect(again.status, again.text).toBe(200);
  });

  it("answers only 200 or 503 while connections are terminated, and loses nothing it answered 200", async () => {
    const existing = await signUpUser(server, project);
    const signedUp: string[] = [];
    let terminated = 0;
    for (let round = 0; round < 3; round++) {
      const signUps = Array.from({ length: 4 }, () =>
        server.request("/auth/password/sign-up", {
          method: "POST",
          as: project.client,
          body: { email: uniqueEmail("storm"), password: PASSWORD },
        }),
      );
      const reads = Array.from({ length: 4 }, () => server.request(`/users/${existing.userId}`, { as: project.server }));
      const [written, read, ended] = await Promise.all([Promise.all(signUps), Promise.all(reads), terminateAll()]);
      terminated += ended;
      for (const res of [...written, ...read]) expectAnsweredOrUnavailable(res);
      for (const res of written) if (res.status === 200) signedUp.push(res.body.user_id as string);
    }
    expect(terminated).toBeGreaterThan(0);
    for (const id of signedUp) {
      const res = await server.request(`/users/${id}`, { as: project.server });
      expect(res.status, res.text).toBe(200);
    }
    // Reconnecting after each round of terminations backs off, and argon2 hashes every sign-up's password.
  }, 90_000);
});

/** A TCP relay to PostgreSQL that can be cut (every connection dropped, new ones refused) and restored on the same port. */
async function startRelay(target: URL) {
  const host = target.hostname;
  const targetPort = Number(target.port || 5432);
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  const listen = (port: number) =>
    new Promise<number>((resolve) => {
      server = createServer((client) => {
        const upstream = connect(targetPort, host);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on("close", () => sockets.delete(socket));
          socket.on("error", () => {
            client.destroy();
            upstream.destroy();
          });
        }
        client.pipe(upstream).pipe(client);
      });
      server.listen(port, "127.0.0.1", () => resolve((server!.address() as { port: number }).port));
    });
  const port = await listen(0);
  return {
    port,
    async cut() {
      const closed = new Promise((resolve) => server!.close(resolve));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
    restore: () => listen(port),
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => (server?.listening ? server.close(resolve) : resolve(undefined)));
    },
  };
}

describe.runIf(onPostgres)("PostgreSQL unreachable", () => {
  let primary: TestServer;
  let server: TestServer;
  let project: Project;
  let relay: Awaited<ReturnType<typeof startRelay>>;

  beforeAll(async () => {
    primary = await createTestServer();
    project = await createProject(primary);
    const url = new URL(primary.databaseUrl!);
    relay = await startRelay(url);
    url.hostname = "127.0.0.1";
    url.port = String(relay.port);
    // A second instance on the same database, reaching it through the relay.
    server = await createTestServer({}, { replicaOf: { ...primary, databaseUrl: url.toString() } });
  });
  afterAll(async () => {
    await server?.close();
    await relay?.close();
    await primary?.close();
  });

  it("answers 503 with Retry-After, reads and writes alike, and serves again once it is back", async () => {
    const user = await signUpUser(server, project);
    await relay.cut();
    expectUnavailable(await server.request(`/users/${user.userId}`, { as: project.server }));
    expectUnavailable(
      await server.request("/auth/password/sign-up", {
        method: "POST",
        as: project.client,
        body: { email: uniqueEmail("unreachable"), password: PASSWORD },
      }),
    );
    expect(server.logs.some((line) => line.msg === "unhandled error")).toBe(false);

    await relay.restore();
    const res = await server.request(`/users/${user.userId}`, { as: project.server });
    expect(res.status, res.text).toBe(200);
  });
});
