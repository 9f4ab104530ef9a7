/**
 * The client's address and country behind reverse proxies
 * (LATCHKEY_TRUSTED_PROXIES, http/client-address.ts): forwarding headers are
 * believed only through trusted hops, on a real socket whose peer is 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { configFromEnv } from "../src/config.ts";
import type { TrustedProxies } from "../src/config/trusted-proxies.ts";
import { EmailSendRateLimit } from "../src/domain/emails/rate-limit.ts";
import { ClientAddresses, forwardedFor, isoCountry } from "../src/http/client-address.ts";
import { createProject, uniqueEmail, type Project } from "./fixtures.ts";
import { authHeaders, createTestServer, type TestServer } from "./harness.ts";

const xff = (proxies: TrustedProxies["proxies"]): TrustedProxies => ({ proxies, header: "x-forwarded-for" });

describe("walking the forwarding headers", () => {
  const address = (trusted: TrustedProxies, peer: string, headers: Record<string, string>) =>
    new ClientAddresses(trusted).address(peer, new Headers(headers));

  test("without trusted proxies the peer is the client, whatever the headers say", () => {
    expect(address(xff([]), "10.0.0.5", { "x-forwarded-for": "203.0.113.9" })).toBe("10.0.0.5");
  });

  test("addresses and ranges: the walk stops at the first hop that is not trusted", () => {
    const trusted = xff(["10.0.0.0/8", "192.0.2.1"]);
    expect(address(trusted, "10.0.0.5", { "x-forwarded-for": "203.0.113.9" })).toBe("203.0.113.9");
    // The client made up the leftmost entry; the trusted proxy appended the address it saw.
    expect(address(trusted, "10.0.0.5", { "x-forwarded-for": "198.51.100.66, 203.0.113.9" })).toBe("203.0.113.9");
    expect(address(trusted, "10.0.0.5", { "x-forwarded-for": "203.0.113.9, 192.0.2.1" })).toBe("203.0.113.9");
    // A peer outside the list: its header is not believed.
    expect(address(trusted, "198.51.100.1", { "x-forwarded-for": "203.0.113.9" })).toBe("198.51.100.1");
    // No header through a trusted peer: the peer.
    expect(address(trusted, "10.0.0.5", {})).toBe("10.0.0.5");
  });

  test("a hop count trusts that many hops from the server outwards", () => {
    const headers = { "x-forwarded-for": "198.51.100.66, 203.0.113.9, 10.1.1.1" };
    expect(address(xff(1), "10.0.0.5", headers)).toBe("10.1.1.1");
    expect(address(xff(2), "10.0.0.5", headers)).toBe("203.0.113.9");
    expect(address(xff(0), "10.0.0.5", headers)).toBe("10.0.0.5");
  });

  test("RFC 7239 Forwarded, when the proxies write that header; the other is then ignored", () => {
    const trusted: TrustedProxies = { proxies: ["10.0.0.0/8"], header: "forwarded" };
    expect(address(trusted, "10.0.0.5", { forwarded: 'for=198.51.100.66, for="[2001:db8::17]:4711";proto=https' })).toBe("2001:db8::17");
    expect(address(trusted, "10.0.0.5", { forwarded: "for=203.0.113.9:8080", "x-forwarded-for": "198.51.100.66" })).toBe("203.0.113.9");
    // A hop that hides the client: not known, rather than the proxy's own address.
    expect(address(trusted, "10.0.0.5", { forwarded: "for=unknown" })).toBeNull();
    expect(forwardedFor('for=_hidden;by=10.0.0.1, proto=https, for="198.51.100.1"')).toBe("_hidden,unknown,198.51.100.1");
  });

  test("country from a trusted peer only, and only real country codes", () => {
    const trusted = new ClientAddresses(xff(["10.0.0.0/8"]));
    expect(trusted.country("10.0.0.5", new Headers({ "cf-ipcountry": "de" }))).toBe("DE");
    expect(trusted.country("10.0.0.5", new Headers({ "x-vercel-ip-country": "JP" }))).toBe("JP");
    expect(trusted.country("198.51.100.1", new Headers({ "cf-ipcountry": "DE" }))).toBeNull();
    expect(new ClientAddresses(xff([])).country("10.0.0.5", new Headers({ "cf-ipcountry": "DE" }))).toBeNull();
    for (const code of ["XX", "T1", "ZZ", "D", "DEU", "", "<b>"]) expect(isoCountry(code)).toBeNull();
  });

  test("a bad entry stops the start naming the variable", () => {
    expect(() => new ClientAddresses(xff(["10.0.0.0/8", "proxy.internal"]))).toThrow(
      /^LATCHKEY_TRUSTED_PROXIES: invalid IP address: proxy\.internal/,
    );
    expect(configFromEnv({ LATCHKEY_TRUSTED_PROXIES: " 2 " }).trustedProxies).toEqual(xff(2));
    expect(configFromEnv({ LATCHKEY_TRUSTED_PROXIES: "10.0.0.0/8, loopback" }).trustedProxies).toEqual(xff(["10.0.0.0/8", "loopback"]));
    expect(() => configFromEnv({ LATCHKEY_FORWARDED_HEADER: "x-real-ip" })).toThrow(/^LATCHKEY_FORWARDED_HEADER must be/);
  });
});

describe("on a socket", () => {
  let server: TestServer;
  let project: Project;
  let base: string;

  beforeAll(async () => {
    server = await createTestServer({ trustedProxies: xff(["127.0.0.1"]) });
    project = await createProject(server);
    base = await server.listen();
  });
  afterAll(() => server?.close());

  /** Trusts `proxies` from now on, with fresh e-mail rate limits. */
  function trust(proxies: TrustedProxies["proxies"]) {
    server.instance.services.clientAddresses = new ClientAddresses(xff(proxies));
    server.instance.services.emailRateLimit = new EmailSendRateLimit(server.clock);
  }

  const post = (path: string, body: unknown, headers: Record<string, string> = {}, as = project.client) =>
    fetch(`${base}/api/v1${path}`, {
      method: "POST",
      headers: { ...authHeaders(as), "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
  const sendResetCode = (forwardedFor: string) =>
    post(
      "/auth/password/send-reset-code",
      { email: uniqueEmail("reset"), callback_url: "http://localhost:3000/reset" },
      { "x-forwarded-for": forwardedFor },
    );

  /** Sends until the address's limit refuses; answers how many were taken. */
  async function exhaust(forwardedFor: string): Promise<number> {
    for (let sent = 0; sent < 100; sent++) {
      const res = await sendResetCode(forwardedFor);
      if (res.status === 429) return sent;
      expect(res.status, await res.text()).toBe(200);
    }
    throw new Error("never limited");
  }

  test("behind a trusted proxy, one client's e-mail sends do not use up everyone's limit", async () => {
    trust(["127.0.0.1"]);
    expect(await exhaust("198.51.100.1")).toBe(30);
    expect((await sendResetCode("198.51.100.2")).status).toBe(200);
  });

  test("from a peer that is not trusted, a spoofed X-Forwarded-For changes nothing", async () => {
    trust([]);
    expect(await exhaust("198.51.100.3")).toBe(30);
    // Another made-up address: still the socket's peer, still refused.
    expect((await sendResetCode("198.51.100.4")).status).toBe(429);
  });

  test("hop counts, the session's address and a new user's country", async () => {
    trust(2);
    const headers = { "x-forwarded-for": "198.51.100.66, 203.0.113.9", "cf-ipcountry": "NZ" };
    const signUp = await post("/auth/password/sign-up", { email: uniqueEmail("geo"), password: "correct horse battery staple" }, headers);
    expect(signUp.status, await signUp.clone().text()).toBe(200);
    const { user_id: userId, refresh_token: refreshToken } = (await signUp.json()) as { user_id: string; refresh_token: string };
    const user = await fetch(`${base}/api/v1/users/${userId}`, { headers: authHeaders(project.server) });
    expect(((await user.json()) as { country_code: string | null }).country_code).toBe("NZ");

    const sessionIps = async () => {
      const res = await fetch(`${base}/api/v1/auth/sessions?user_id=${userId}`, { headers: authHeaders(project.server) });
      return ((await res.json()) as { items: { last_used_at_end_user_ip_info?: { ip: string } }[] }).items.map(
        (s) => s.last_used_at_end_user_ip_info?.ip,
      );
    };
    // Two hops trusted (the socket's peer and the proxy before it): the client is the address that proxy saw.
    expect(await sessionIps()).toEqual(["198.51.100.66"]);
    const moved = { "x-forwarded-for": "198.51.100.77, 203.0.113.9", "x-stack-refresh-token": refreshToken };
    expect((await post("/auth/sessions/current/refresh", {}, moved)).status).toBe(200);
    expect(await sessionIps()).toEqual(["198.51.100.77"]);

    // Untrusted: the country header is ignored.
    trust([]);
    const spoofed = await post("/auth/password/sign-up", { email: uniqueEmail("geo"), password: "correct horse battery staple" }, headers);
    const spoofedId = ((await spoofed.json()) as { user_id: string }).user_id;
    const other = await fetch(`${base}/api/v1/users/${spoofedId}`, { headers: authHeaders(project.server) });
    expect(((await other.json()) as { country_code: string | null }).country_code).toBeNull();
  });
});
