/**
 * Two replica processes on one PostgreSQL database under sign-ups and refreshes
 * while one of them is killed (SIGKILL) and restarted: every write a replica
 * acknowledged is there afterwards. Each sign-up answered 200 has its user, and
 * each refresh answered 200 gave an access token that works on the other
 * replica. Requests to the killed replica fail meanwhile; they acknowledged
 * nothing and are not checked. PostgreSQL only (replicas need a shared database).
 */
import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { freePort, postgresDatabase, PROCESS_TIMEOUT, startProcess, type ServerProcess } from "./process-fixtures.ts";

/** With DATABASE_URL the process is in production mode: a log line instead of the development banner. */
const SERVING = "Latchkey is serving";
/** Concurrent clients, each alternating between the replicas. */
const CLIENTS = 4;

interface Acknowledged {
  signUps: { email: string; refreshToken: string }[];
  refreshes: { email: string; accessToken: string }[];
}

describe.runIf(process.env.LATCHKEY_TEST_DB === "postgres")("replicas, one killed under load", () => {
  const cleanups: (() => Promise<unknown> | void)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it(
    "lose no acknowledged sign-up or refresh",
    async () => {
      const database = await postgresDatabase("latchkey_chaos");
      cleanups.push(database.drop);
      const ports = [await freePort(), await freePort()];
      const urls = ports.map((port) => `http://127.0.0.1:${port}`);
      const keys = {
        publishable: `pck_chaos_${randomBytes(20).toString("hex")}`,
        secret: `ssk_chaos_${randomBytes(20).toString("hex")}`,
      };
      const serverSecret = randomBytes(32).toString("hex");
      const env = (port: number): NodeJS.ProcessEnv => ({
        PORT: String(port),
        DATABASE_URL: database.url,
        // One issuer for both: a token from one replica is checked by the other.
        LATCHKEY_API_URL: urls[0],
        STACK_SERVER_SECRET: serverSecret,
        STACK_SEED_INTERNAL_PROJECT_PUBLISHABLE_CLIENT_KEY: keys.publishable,
        STACK_SEED_INTERNAL_PROJECT_SECRET_SERVER_KEY: keys.secret,
      });
      const start = (i: number) => {
        const server = startProcess(env(ports[i]!));
        cleanups.push(() => server.stop());
        return server;
      };
      // One after the other: both would run the migrations' check at once otherwise, which is not what is tested.
      const replicas: ServerProcess[] = [start(0)];
      await replicas[0]!.waitFor(SERVING);
      replicas.push(start(1));
      await replicas[1]!.waitFor(SERVING);

      const client = { "content-type": "application/json", "x-stack-access-type": "client", "x-stack-project-id": "internal" };
      const clientHeaders = { ...client, "x-stack-publishable-client-key": keys.publishable };
      const acknowledged: Acknowledged = { signUps: [], refreshes: [] };
      let failures = 0;
      /** Server errors, but the restarting replica's "starting" (it takes its port before it can serve). */
      const serverErrors: string[] = [];
      const note = async (res: Response | null) => {
        if (!res || res.status < 500) return;
        const text = await res.clone().text();
        if (res.status !== 503 || !text.includes("Latchkey is starting")) serverErrors.push(`${res.status} ${text}`);
      };
      let stop = false;
      /** A request that may meet a dead replica: null when it got no answer. */
      const attempt = async (url: string, init: RequestInit) => {
        try {
          return await fetch(url, { ...init, signal: AbortSignal.timeout(30_000) });
        } catch {
          failures++;
          return null;
        }
      };
      const work = async (id: number) => {
        for (let n = 0; !stop; n++) {
          const base = urls[(id + n) % 2]!;
          const email = `chaos-${id}-${n}@example.com`;
          const signUp = await attempt(`${base}/api/v1/auth/password/sign-up`, {
            method: "POST",
            headers: clientHeaders,
            body: JSON.stringify({ email, password: "a long enough password" }),
          });
          await note(signUp);
          if (signUp?.status !== 200) continue;
          const { refresh_token } = (await signUp.json()) as { refresh_token: string };
          acknowledged.signUps.push({ email, refreshToken: refresh_token });
          // The refresh goes to the other replica.
          const refreshed = await attempt(`${urls[(id + n + 1) % 2]}/api/v1/auth/sessions/current/refresh`, {
            method: "POST",
            headers: { ...clientHeaders, "x-stack-refresh-token": refresh_token },
          });
          await note(refreshed);
          if (refreshed?.status !== 200) continue;
          const { access_token } = (await refreshed.json()) as { access_token: string };
          acknowledged.refreshes.push({ email, accessToken: access_token });
        }
      };
      const load = Promise.all(Array.from({ length: CLIENTS }, (_, id) => work(id)));

      // Some writes on both, then the kill in the middle of the load, then the restart, then more writes.
      const until = async (count: number) => {
        while (acknowledged.refreshes.length < count) await new Promise((done) => setTimeout(done, 100));
      };
      await until(8);
      replicas[1]!.child.kill("SIGKILL");
      expect(await replicas[1]!.exited).toBeNull();
      const during = acknowledged.refreshes.length;
      replicas[1] = start(1);
      await replicas[1].waitFor(SERVING);
      await until(during + 8);
      stop = true;
      await load;
      // Requests to the dead replica got no answer (the kill happened under load); no answer was a server error.
      expect(failures).toBeGreaterThan(0);
      expect(serverErrors).toEqual([]);

      const survivor = urls[0]!;
      const serverHeaders = { "x-stack-access-type": "server", "x-stack-project-id": "internal", "x-stack-secret-server-key": keys.secret };
      const listed = await fetch(`${survivor}/api/v1/users?limit=1000`, { headers: serverHeaders });
      expect(listed.status).toBe(200);
      const emails = new Set(((await listed.json()) as { items: { primary_email: string }[] }).items.map((u) => u.primary_email));
      expect(acknowledged.signUps.filter(({ email }) => !emails.has(email))).toEqual([]);
      for (const { email, accessToken } of acknowledged.refreshes) {
        for (const base of urls) {
          const me = await fetch(`${base}/api/v1/users/me`, {
            headers: { ...clientHeaders, "x-stack-access-token": accessToken },
          });
          expect(me.status, `${email} on ${base}`).toBe(200);
          expect(((await me.json()) as { primary_email: string }).primary_email).toBe(email);
        }
      }
    },
    2 * PROCESS_TIMEOUT,
  );
});
