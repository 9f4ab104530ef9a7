/**
 * Passkey sign-ins for the bench: each pool user registers a passkey with a
 * software authenticator (test/passkey-authenticator.ts: real keys, real
 * signatures), then every sign-in gets its own challenge and a signed
 * answer, made before the measured run so only the server's side is timed.
 * The answers report the signature counter 0, as synced passkeys do, so
 * concurrent sign-ins with one credential cannot arrive out of order.
 */
import { SoftwareAuthenticator, type StoredCredential } from "../test/passkey-authenticator.ts";
import { call, type Fixture } from "./setup.ts";

/** Sign-ins measured (each with its own challenge, used once). */
export const PASSKEY_SIGN_INS = 2_000;
const ORIGIN = "http://localhost:3000";

/** One passkey per pool user; returns the authenticator holding them all. */
export async function registerPoolPasskeys(base: string, fx: Fixture): Promise<SoftwareAuthenticator> {
  const authenticator = new SoftwareAuthenticator();
  for (const user of fx.users) {
    const headers = { ...fx.client, "x-stack-access-token": user.accessToken };
    const initiated = await call(base, "/auth/passkey/initiate-passkey-registration", { method: "POST", headers, body: {} });
    if (initiated.status !== 200) throw new Error(`initiate registration: ${initiated.status} ${JSON.stringify(initiated.body)}`);
    const credential = authenticator.register(initiated.body.options_json, ORIGIN, { counter: 0 });
    const registered = await call(base, "/auth/passkey/register", {
      method: "POST",
      headers,
      body: { credential, code: initiated.body.code },
    });
    if (registered.status !== 200) throw new Error(`register: ${registered.status} ${JSON.stringify(registered.body)}`);
  }
  return authenticator;
}

/** `count` sign-in bodies: a fresh challenge each, answered by the pool's passkeys in turn. */
export async function passkeySignIns(base: string, fx: Fixture, authenticator: SoftwareAuthenticator, count: number): Promise<unknown[]> {
  const bodies: unknown[] = [];
  while (bodies.length < count) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(64, count - bodies.length) }, () =>
        call(base, "/auth/passkey/initiate-passkey-authentication", { method: "POST", headers: fx.client, body: {} }),
      ),
    );
    for (const initiated of batch) {
      if (initiated.status !== 200) throw new Error(`initiate authentication: ${initiated.status} ${JSON.stringify(initiated.body)}`);
      const credential: StoredCredential = authenticator.credentials[bodies.length % authenticator.credentials.length]!;
      const answer = authenticator.authenticate(initiated.body.options_json, ORIGIN, { counter: 0 }, credential);
      bodies.push({ authentication_response: answer, code: initiated.body.code });
    }
  }
  return bodies;
}
