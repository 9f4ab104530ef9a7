/**
 * Sign-ins: the bare argon2id verify rate, password sign-in (with a session read alongside), sign-in without the
 * hash's cost, the second factor (TOTP) and passkeys; and the sequential timing probe of failed sign-ins.
 */
import { hashPassword, verifyPassword } from "../src/domain/auth/password/passwords.ts";
import { CONNECTIONS, PASSWORD, PROBE_COUNT, RUN_ID, WARMUP, wanted } from "./config.ts";
import { cannon, jsonPost, roundRobin } from "./cannon.ts";
import { PASSKEY_SIGN_INS, passkeySignIns, registerPoolPasskeys } from "./passkeys.ts";
import type { ScenarioRun } from "./scenario-run.ts";
import { attemptCodes, currentTotp, importUsers, MFA_SIGN_INS } from "./second-factor.ts";
import { call, type ApiResponse, type Fixture } from "./setup.ts";

export interface HashRate {
  rps: number;
  singleMillis: number;
  /** CPU time one verify costs (all threads). */
  cpuMillis: number;
}

/**
 * Raw argon2id verify throughput in this process, with the server's options
 * and as many concurrent calls as connections: what sign-in can reach at best.
 */
async function hashRate(seconds = 3): Promise<HashRate> {
  const stored = await hashPassword(PASSWORD);
  let t = performance.now();
  for (let i = 0; i < 5; i++) await verifyPassword(stored, PASSWORD);
  const singleMillis = (performance.now() - t) / 5;
  let done = 0;
  const deadline = performance.now() + seconds * 1000;
  t = performance.now();
  const cpu0 = process.cpuUsage();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < deadline) {
        await verifyPassword(stored, PASSWORD);
        done += 1;
      }
    }),
  );
  const cpu = process.cpuUsage(cpu0);
  return { rps: done / ((performance.now() - t) / 1000), singleMillis, cpuMillis: (cpu.user + cpu.system) / 1000 / done };
}

function median(values: number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export interface TimingProbe {
  correct: number;
  wrongPassword: number;
  unknownEmail: number;
  counted: number;
  rateLimited: number;
  unexpected: string[];
}

/**
 * Sequential sign-ins: a wrong password for known users vs an unknown e-mail
 * (interleaved; 2×60 failures from one address stay under the limit of 200
 * per address, and at most 1–2 per account under the limit of 20).
 */
export async function timingProbe(base: string, fx: Fixture): Promise<TimingProbe> {
  const correct: number[] = [];
  const wrong: number[] = [];
  const unknown: number[] = [];
  let rateLimited = 0;
  const unexpected: string[] = [];
  const signIn = (email: string, password: string) =>
    call(base, "/auth/password/sign-in", { method: "POST", headers: fx.client, body: { email, password } });
  const note = (what: string, res: ApiResponse, expected: string) => {
    if (res.status === 429) rateLimited += 1;
    else unexpected.push(`${what}: ${res.status} ${res.knownError ?? ""} (expected ${expected})`);
  };
  for (let i = 0; i < PROBE_COUNT; i++) {
    const user = fx.users[i % fx.users.length]!;
    const w = await signIn(user.email, `${PASSWORD} but wrong`);
    if (w.knownError === "EMAIL_PASSWORD_MISMATCH") wrong.push(w.millis);
    else note("wrong password", w, "EMAIL_PASSWORD_MISMATCH");
    const u = await signIn(`nobody-${RUN_ID}-${i}@example.com`, PASSWORD);
    if (u.knownError === "EMAIL_PASSWORD_MISMATCH") unknown.push(u.millis);
    else note("unknown e-mail", u, "EMAIL_PASSWORD_MISMATCH");
    if (i % 3 === 0) {
      const c = await signIn(user.email, PASSWORD);
      if (c.status === 200) correct.push(c.millis);
      else note("correct password", c, "200");
    }
  }
  return {
    correct: median(correct),
    wrongPassword: median(wrong),
    unknownEmail: median(unknown),
    counted: Math.min(wrong.length, unknown.length),
    rateLimited,
    unexpected: unexpected.slice(0, 5),
  };
}

export async function signIns(run: ScenarioRun): Promise<void> {
  const { label, base, pid, fx, report } = run;
  const nextUser = roundRobin(fx.users);
  if (wanted("sign-in")) {
    process.stdout.write(`[${label}] argon2id verify rate, then sign-in…\n`);
    report.hash = await hashRate();
    const request = jsonPost("/api/v1/auth/password/sign-in", () => ({ email: nextUser().email, password: PASSWORD }));
    // Alongside: one client reading /users/me in a loop, to see what hashing does to other requests.
    const user = fx.users[0]!;
    const readMe = () => call(base, "/users/me", { headers: { ...fx.client, "x-stack-access-token": user.accessToken } });
    const idle: number[] = [];
    for (let i = 0; i < 20; i++) idle.push((await readMe()).millis);
    let running = true;
    const busy: number[] = [];
    const reader = (async () => {
      await new Promise((r) => setTimeout(r, 1000));
      while (running) {
        const res = await readMe().catch(() => null);
        if (res && running) busy.push(res.millis);
      }
    })();
    report.rows.push(await cannon("POST /auth/password/sign-in", base, { headers: fx.client, request, pid }));
    running = false;
    await reader;
    report.meDuringSignIn = { idle: median(idle), busy: median(busy), count: busy.length };
  }
  if (wanted("sign-in-cheap-hash")) {
    process.stdout.write(`[${label}] sign-in with a cheap stored hash (the sign-in's cost without argon2id)…\n`);
    const nextImported = roundRobin(await importUsers(base, fx, 256, label, false));
    const request = jsonPost("/api/v1/auth/password/sign-in", () => ({ email: nextImported().email, password: PASSWORD }));
    await cannon("warm-up", base, { headers: fx.client, request, pid }, WARMUP);
    report.rows.push(await cannon("POST /auth/password/sign-in (bcrypt cost 4: no hash cost)", base, { headers: fx.client, request, pid }));
  }
  if (wanted("mfa-sign-in")) {
    process.stdout.write(`[${label}] ${MFA_SIGN_INS} two-factor users, their first factor, then the TOTP step…\n`);
    const nextAttempt = roundRobin(await attemptCodes(base, fx, await importUsers(base, fx, MFA_SIGN_INS, label, true)));
    const request = jsonPost("/api/v1/auth/mfa/sign-in", () => {
      const attempt = nextAttempt();
      return { type: "totp", totp: currentTotp(attempt.secretBase64), code: attempt.code };
    });
    report.rows.push(
      await cannon(`POST /auth/mfa/sign-in (${MFA_SIGN_INS}, each code once)`, base, {
        headers: fx.client,
        request,
        pid,
        amount: MFA_SIGN_INS,
      }),
    );
  }
  if (wanted("passkey-sign-in")) {
    process.stdout.write(`[${label}] a passkey per pool user, ${PASSKEY_SIGN_INS} challenges answered, then passkey sign-in…\n`);
    const nextBody = roundRobin(await passkeySignIns(base, fx, await registerPoolPasskeys(base, fx), PASSKEY_SIGN_INS));
    const request = jsonPost("/api/v1/auth/passkey/sign-in", nextBody);
    report.rows.push(
      await cannon(`POST /auth/passkey/sign-in (${PASSKEY_SIGN_INS}, each challenge once)`, base, {
        headers: fx.client,
        request,
        pid,
        amount: PASSKEY_SIGN_INS,
      }),
    );
  }
}
