/**
 * One process per PGlite data directory, with real server processes: a second
 * start is refused while the first keeps serving its data; a lock left by a
 * killed process is taken over; what the server writes stays in LATCHKEY_DATA_DIR.
 */
import { existsSync, readdirSync, readFileSync, renameSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import {
  freePort,
  migratedDataDir,
  PROCESS_TIMEOUT,
  signUpToInternal,
  startProcess,
  tempDir,
  type ServerProcess,
} from "./process-fixtures.ts";

const BANNER = "Internal project";

function bannerKeys(output: string): Record<string, string> {
  return Object.fromEntries([...output.matchAll(/^ {4}(\w+_key) +(\S+)$/gm)].map((m) => [m[1]!, m[2]!]));
}

async function me(apiUrl: string, publishableClientKey: string, accessToken: string) {
  const res = await fetch(`${apiUrl}/api/v1/users/me`, {
    headers: {
      "x-stack-access-type": "client",
      "x-stack-project-id": "internal",
      "x-stack-publishable-client-key": publishableClientKey,
      "x-stack-access-token": accessToken,
    },
  });
  return { status: res.status, body: (await res.json()) as { primary_email?: string } };
}

/** A stack trace's lines, e.g. "    at connect (node:net:…)". */
const STACK_LINE = /^\s+at /m;

describe.skipIf(process.env.LATCHKEY_TEST_DB !== "pglite")("one process per PGlite data directory", () => {
  const dir = tempDir("latchkey-one-writer-");
  const dataDir = join(dir.path, "data");
  let first: ServerProcess;
  let port: number;
  let apiUrl: string;
  let keys: Record<string, string>;

  beforeAll(async () => {
    migratedDataDir(dataDir);
    port = await freePort();
    apiUrl = `http://127.0.0.1:${port}`;
    first = startProcess({ PORT: String(port), LATCHKEY_DATA_DIR: dataDir, LATCHKEY_API_URL: apiUrl });
    await first.waitFor(BANNER);
    keys = bannerKeys(first.stdout());
  }, PROCESS_TIMEOUT);

  afterAll(async () => {
    await first?.stop();
    dir.remove();
  });

  it(
    "refuses a second process on another port, naming the directory and the first; the first keeps serving its data",
    async () => {
      const { access_token } = await signUpToInternal(apiUrl, keys.publishable_client_key!, "kept@example.com");
      const second = startProcess({ PORT: String(await freePort()), LATCHKEY_DATA_DIR: dataDir });
      expect(await second.exited).toBe(1);
      expect(second.stderr().trim()).toBe(
        `Another Latchkey process (pid ${first.child.pid}, port ${port}) is using the data directory ${dataDir}: stop it first, or give this one its own LATCHKEY_DATA_DIR.`,
      );
      expect(second.stdout()).toBe("");
      expect(await me(apiUrl, keys.publishable_client_key!, access_token)).toMatchObject({
        status: 200,
        body: { primary_email: "kept@example.com" },
      });
    },
    PROCESS_TIMEOUT,
  );

  it(
    "on the same port too: the lock's sentence, no EADDRINUSE stack",
    async () => {
      const second = startProcess({ PORT: String(port), LATCHKEY_DATA_DIR: dataDir });
      expect(await second.exited).toBe(1);
      expect(second.stderr()).toContain(`is using the data directory ${dataDir}`);
      expect(second.output()).not.toContain("EADDRINUSE");
      expect(second.output()).not.toMatch(STACK_LINE);
      expect((await fetch(`${apiUrl}/api/v1`)).status).toBe(200);
    },
    PROCESS_TIMEOUT,
  );

  it("keeps its secret, keys and lock inside LATCHKEY_DATA_DIR, nothing beside it", () => {
    expect(readdirSync(dir.path)).toEqual(["data"]);
    const inside = readdirSync(dataDir);
    expect(inside).toEqual(expect.arrayContaining(["server-secret", "dev-keys.json", "PG_VERSION"]));
    expect(inside.filter((name) => name.startsWith("latchkey.lock."))).toHaveLength(1);
    expect(JSON.parse(readFileSync(join(dataDir, "dev-keys.json"), "utf8"))).toEqual(keys);
  });
});

describe.skipIf(process.env.LATCHKEY_TEST_DB !== "pglite")("a lock left by a killed process", () => {
  const dir = tempDir("latchkey-killed-");
  const dataDir = join(dir.path, "data");
  afterAll(() => dir.remove());

  it(
    "is taken over by the next start, which serves the same data with the same keys",
    async () => {
      migratedDataDir(dataDir);
      const port = await freePort();
      const apiUrl = `http://127.0.0.1:${port}`;
      const env = { PORT: String(port), LATCHKEY_DATA_DIR: dataDir, LATCHKEY_API_URL: apiUrl };
      const killed = startProcess(env);
      await killed.waitFor(BANNER);
      const keys = bannerKeys(killed.stdout());
      const { access_token } = await signUpToInternal(apiUrl, keys.publishable_client_key!, "survivor@example.com");
      killed.child.kill("SIGKILL");
      await killed.exited;
      const [lockFile] = readdirSync(dataDir).filter((name) => name.startsWith("latchkey.lock."));
      expect(JSON.parse(readFileSync(join(dataDir, lockFile!), "utf8"))).toMatchObject({ pid: killed.child.pid });
      expect(JSON.parse(readFileSync(join(dataDir, lockFile!), "utf8")).released).toBeUndefined();

      const next = startProcess(env);
      try {
        await next.waitFor(BANNER);
        expect(bannerKeys(next.stdout())).toEqual(keys);
        expect((await me(apiUrl, keys.publishable_client_key!, access_token)).body.primary_email).toBe("survivor@example.com");
        const locks = readdirSync(dataDir).filter((name) => name.startsWith("latchkey.lock."));
        expect(locks).toHaveLength(1);
        expect(JSON.parse(readFileSync(join(dataDir, locks[0]!), "utf8"))).toMatchObject({ pid: next.child.pid, port });
      } finally {
        expect(await next.stop()).toBe(0);
      }
      // A stopped server leaves the lock released.
      const [released] = readdirSync(dataDir).filter((name) => name.startsWith("latchkey.lock."));
      expect(JSON.parse(readFileSync(join(dataDir, released!), "utf8")).released).toBe(true);
    },
    PROCESS_TIMEOUT,
  );
});

describe.skipIf(process.env.LATCHKEY_TEST_DB !== "pglite")("an install from before the files moved into LATCHKEY_DATA_DIR", () => {
  const dir = tempDir("latchkey-legacy-");
  const dataDir = join(dir.path, "data");
  afterAll(() => dir.remove());

  it(
    "copies the secret and dev keys from beside the data directory once, and leaves the old files",
    async () => {
      migratedDataDir(dataDir);
      const port = await freePort();
      const env = { PORT: String(port), LATCHKEY_DATA_DIR: dataDir };
      // The first start of the old layout: make keys, then move them where earlier versions kept them.
      const before = startProcess(env);
      await before.waitFor(BANNER);
      const keys = bannerKeys(before.stdout());
      expect(await before.stop()).toBe(0);
      const secret = readFileSync(join(dataDir, "server-secret"), "utf8");
      for (const name of ["server-secret", "dev-keys.json"]) renameSync(join(dataDir, name), join(dir.path, name));

      // The signing keys are sealed with that secret: a start with any other could not decrypt them.
      const after = startProcess(env);
      try {
        await after.waitFor(BANNER);
        expect(bannerKeys(after.stdout())).toEqual(keys);
        expect(readFileSync(join(dataDir, "server-secret"), "utf8")).toBe(secret);
        expect(existsSync(join(dir.path, "server-secret"))).toBe(true);
      } finally {
        await after.stop();
      }
    },
    PROCESS_TIMEOUT,
  );
});

/** The internal project's users, as its secret server key lists them. */
async function userEmails(apiUrl: string, keys: Record<string, string>): Promise<string[]> {
  const res = await fetch(`${apiUrl}/api/v1/users?limit=200`, {
    headers: {
      "x-stack-access-type": "server",
      "x-stack-project-id": "internal",
      "x-stack-secret-server-key": keys.secret_server_key!,
    },
  });
  expect(res.status).toBe(200);
  const { items } = (await res.json()) as { items: { primary_email: string | null }[] };
  return items.map((user) => user.primary_email ?? "").sort();
}

/** Rounds of two servers started at the same instant on one data directory (about 12 s each on a busy 2-core machine). */
const ROUNDS = 20;
const RACER = "packages/server/test/server-racer.ts";

describe.skipIf(process.env.LATCHKEY_TEST_DB !== "pglite")("two servers started at the same instant", () => {
  const dir = tempDir("latchkey-race-");
  const dataDir = join(dir.path, "data");
  afterAll(() => dir.remove());

  it(
    `${ROUNDS} times: one serves, the other is refused naming it; the one serving is stopped or killed, and no acknowledged sign-up is lost`,
    async () => {
      migratedDataDir(dataDir);
      const acknowledged: string[] = [];
      let keys: Record<string, string> | null = null;
      const started: ServerProcess[] = [];
      onTestFinished(async () => {
        await Promise.all(started.map((p) => p.stop()));
      });
      /** A round's two processes, their modules loaded (the next round's load while this one runs). */
      const pair = () =>
        Promise.all(
          [0, 1].map(async () => {
            const port = await freePort();
            const env = { PORT: String(port), LATCHKEY_DATA_DIR: dataDir, LATCHKEY_API_URL: `http://127.0.0.1:${port}` };
            const server = startProcess(env, "start", RACER);
            started.push(server);
            await server.waitFor("ready\n");
            return { port, server };
          }),
        );
      let next = pair();
      for (let round = 0; round < ROUNDS; round++) {
        const racers = await next;
        next = round + 1 < ROUNDS ? pair() : Promise.resolve([]);
        const ports = racers.map((r) => r.port);
        const both = racers.map((r) => r.server);
        for (const p of both) p.child.stdin!.write("go\n");
        try {
          const refused = await Promise.race(both.map((p, i) => p.exited.then(() => i)));
          const winner = both[1 - refused]!;
          expect(await both[refused]!.exited, `round ${round}: ${both[refused]!.output()}`).toBe(1);
          expect(both[refused]!.stderr().trim()).toBe(
            `Another Latchkey process (pid ${winner.child.pid}, port ${ports[1 - refused]}) is using the data directory ${dataDir}: stop it first, or give this one its own LATCHKEY_DATA_DIR.`,
          );
          await winner.waitFor(BANNER);
          const apiUrl = `http://127.0.0.1:${ports[1 - refused]}`;
          // The same keys every round: they live in the data directory.
          keys ??= bannerKeys(winner.stdout());
          expect(bannerKeys(winner.stdout())).toEqual(keys);
          // Everything acknowledged in the rounds before, also by a server killed right after answering.
          expect(await userEmails(apiUrl, keys)).toEqual([...acknowledged].sort());
          const email = `round-${round}@example.com`;
          await signUpToInternal(apiUrl, keys.publishable_client_key!, email);
          acknowledged.push(email);
          // Half the rounds end with a kill: the next round's winner takes the dead holder's lock over.
          if (round % 2 === 1) {
            winner.child.kill("SIGKILL");
            expect(await winner.exited).toBeNull();
          } else {
            expect(await winner.stop()).toBe(0);
          }
        } finally {
          await Promise.all(both.map((p) => p.stop()));
        }
      }
      const port = await freePort();
      const last = startProcess({ PORT: String(port), LATCHKEY_DATA_DIR: dataDir });
      try {
        await last.waitFor(BANNER);
        expect(await userEmails(`http://127.0.0.1:${port}`, keys!)).toEqual([...acknowledged].sort());
      } finally {
        expect(await last.stop()).toBe(0);
      }
    },
    ROUNDS * 30_000,
  );
});
