/**
 * An app protecting its own backend: the browser sends its tokens
 * (getAuthorizationHeader, getAuthHeaders, or the cookies of
 * `tokenStore: "cookie"`), and the backend reads the user of the request with
 * `StackServerApp.getUser({ tokenStore: request })` — a Fetch `Request`, or a
 * Node `IncomingMessage` on a real node:http server here.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CurrentServerUser, StackServerApp, type StackClientApp } from "../../src/index.ts";
import { clientAppOf, createSdkProject, type SdkProject } from "./fixtures.ts";
import { PASSWORD, startServer, uniqueEmail, type TestServer } from "./support.ts";

let server: TestServer;
let baseUrl: string;
let project: SdkProject;
let backend: StackServerApp;
let nodeBackend: Server;
let nodeBackendUrl: string;

beforeAll(async () => {
  ({ server, baseUrl } = await startServer());
  project = await createSdkProject(baseUrl);
  backend = new StackServerApp({ baseUrl, projectId: project.id, secretServerKey: project.secretServerKey });
  // The app's own API: answers who the request's user is.
  nodeBackend = createServer((req, res) => {
    backend.getUser({ tokenStore: req }).then(
      (user) => res.end(JSON.stringify({ id: user?.id ?? null, server: user instanceof CurrentServerUser })),
      (error: Error) => res.writeHead(400).end(JSON.stringify({ error: error.message })),
    );
  });
  await new Promise<void>((resolve) => nodeBackend.listen(0, "127.0.0.1", resolve));
  nodeBackendUrl = `http://127.0.0.1:${(nodeBackend.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => nodeBackend?.close(resolve));
  await server?.close();
});

async function signedUp(): Promise<{ app: StackClientApp; id: string }> {
  const app = clientAppOf(baseUrl, project);
  const result = await app.signUpWithCredential({ email: uniqueEmail("backend"), password: PASSWORD, noRedirect: true });
  expect(result.status).toBe("ok");
  return { app, id: (await app.getUser({ or: "throw" })).id };
}

async function askNodeBackend(headers: Record<string, string>): Promise<{ id?: string | null; server?: boolean; error?: string }> {
  return (await fetch(nodeBackendUrl, { headers })).json() as Promise<{ id?: string | null; server?: boolean; error?: string }>;
}

describe("the headers a client sends", () => {
  it("getAuthorizationHeader is `Bearer stackauth_` and the base64 of getAuthJson(); null when signed out", async () => {
    const { app } = await signedUp();
    const header = await app.getAuthorizationHeader();
    expect(header).toMatch(/^Bearer stackauth_[A-Za-z0-9+/]+=*$/);
    const json = JSON.parse(Buffer.from(header!.slice("Bearer stackauth_".length), "base64").toString("utf8")) as unknown;
    expect(json).toEqual(await app.getAuthJson());
    expect(await app.getAuthHeaders()).toEqual({ "x-stack-auth": JSON.stringify(await app.getAuthJson()) });
    const user = await app.getUser({ or: "throw" });
    await user.signOut();
    expect(await app.getAuthorizationHeader()).toBeNull();
  });
});

describe("getUser({ tokenStore: request }) with a Fetch Request", () => {
  it("reads the Authorization header, as the server's view of the user", async () => {
    const { app, id } = await signedUp();
    const request = new Request("https://api.example.com/me", { headers: { authorization: (await app.getAuthorizationHeader())! } });
    const user = await backend.getUser({ tokenStore: request });
    expect(user).toBeInstanceOf(CurrentServerUser);
    expect(user?.id).toBe(id);
  });

  it("reads the x-stack-auth header", async () => {
    const { app, id } = await signedUp();
    const user = await backend.getUser({ tokenStore: new Request("https://api.example.com/me", { headers: await app.getAuthHeaders() }) });
    expect(user?.id).toBe(id);
  });

  it("answers null for a request with no tokens, or another Authorization scheme", async () => {
    expect(await backend.getUser({ tokenStore: new Request("https://api.example.com/me") })).toBeNull();
    const other = new Request("https://api.example.com/me", { headers: { authorization: "Bearer some-other-token" } });
    expect(await backend.getUser({ tokenStore: other })).toBeNull();
  });

  it("refuses a malformed stackauth_ value or x-stack-auth header", async () => {
    const broken = new Request("https://api.example.com/me", { headers: { authorization: "Bearer stackauth_bm90IGpzb24" } });
    await expect(backend.getUser({ tokenStore: broken })).rejects.toThrow(/not base64 of JSON/);
    const notObject = new Request("https://api.example.com/me", { headers: { "x-stack-auth": "[1]" } });
    await expect(backend.getUser({ tokenStore: notObject })).rejects.toThrow(/must hold a JSON object/);
  });

  it("does not take a signed-out session's tokens", async () => {
    const { app } = await signedUp();
    const { refreshToken } = await app.getAuthJson();
    await (await app.getUser({ or: "throw" })).signOut();
    const authorization = `Bearer stackauth_${Buffer.from(JSON.stringify({ accessToken: null, refreshToken })).toString("base64")}`;
    expect(await backend.getUser({ tokenStore: new Request("https://api.example.com/me", { headers: { authorization } }) })).toBeNull();
  });
});

describe("getUser({ tokenStore: request }) with a Node IncomingMessage", () => {
  it("reads the Authorization header", async () => {
    const { app, id } = await signedUp();
    expect(await askNodeBackend({ authorization: (await app.getAuthorizationHeader())! })).toEqual({ id, server: true });
  });

  it("reads the x-stack-auth header", async () => {
    const { app, id } = await signedUp();
    expect(await askNodeBackend(await app.getAuthHeaders())).toEqual({ id, server: true });
  });

  it("reads the cookies of a browser app (`stack-refresh-<project id>` and `stack-access`)", async () => {
    const { app, id } = await signedUp();
    const { accessToken, refreshToken } = await app.getAuthJson();
    const cookie = [
      `other=1`,
      `stack-refresh-${project.id}=${encodeURIComponent(refreshToken!)}`,
      `stack-access=${encodeURIComponent(JSON.stringify([refreshToken, accessToken]))}`,
    ].join("; ");
    expect(await askNodeBackend({ cookie })).toEqual({ id, server: true });
  });

  it("reads a refresh token from the per-domain cookies (the latest), refreshing the access token", async () => {
    const { app, id } = await signedUp();
    const { refreshToken } = await app.getAuthJson();
    const structured = (token: string, at: number) => encodeURIComponent(JSON.stringify({ refresh_token: token, updated_at_millis: at }));
    const cookie = [
      `__Host-stack-refresh-${project.id}--default=${structured("an-older-token", 1)}`,
      `stack-refresh-${project.id}--custom-abc=${structured(refreshToken!, Date.now())}`,
    ].join("; ");
    expect(await askNodeBackend({ cookie })).toEqual({ id, server: true });
  });

  it("answers no user for a request without tokens, and refuses a malformed x-stack-auth", async () => {
    expect(await askNodeBackend({})).toEqual({ id: null, server: false });
    expect(await askNodeBackend({ "x-stack-auth": "not json" })).toEqual({ error: "The x-stack-auth header is not JSON." });
  });
});
