/**
 * The Svix-compatible webhooks management API (capabilities/webhooks/svix/app.ts), driven by the real `svix`
 * client against a listening server: a token from POST /webhooks/svix-token, endpoints managed, a message sent
 * and delivered to a receiver on loopback, attempts listed, a resend and a recovery; a token reaches its own
 * project only, and nothing without one. And POST /internal/send-test-webhook, answered by the endpoint's outcome.
 */
import { TEST_WEBHOOK_MESSAGE } from "@latchkey/shared";
import { Webhook } from "standardwebhooks";
import { ApiException, Svix } from "svix";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { SVIX_TOKEN_LIFETIME_MILLIS } from "../src/capabilities/webhooks/domain/svix-token.ts";
import { TEST_ENDPOINT_NOT_FOUND, TEST_NOT_DELIVERED } from "../src/capabilities/webhooks/domain/test-send.ts";
import { webhookEndpoints } from "../src/capabilities/webhooks/schema.ts";
import { createProject, serverWithProject, type Project } from "./fixtures.ts";
import { expectKnownError, freePort, type TestServer } from "./harness.ts";
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from "./webhook-receiver.ts";

let server: TestServer;
let project: Project;
let other: Project;
let base: string;
let svix: Svix;
let otherSvix: Svix;
let receiver: WebhookReceiver;

async function svixToken(on: Project) {
  const res = await server.request("/webhooks/svix-token", { method: "POST", as: on.admin, body: {} });
  expect(res.status, res.text).toBe(201);
  return res.body as { token: string; url: string };
}

beforeAll(async () => {
  ({ server, project } = await serverWithProject());
  other = await createProject(server);
  base = await server.listen();
  // The server's apiUrl is not the port the test listens on: the client is pointed at the port, with the same path.
  svix = new Svix((await svixToken(project)).token, { serverUrl: `${base}/svix` });
  otherSvix = new Svix((await svixToken(other)).token, { serverUrl: `${base}/svix` });
});
afterAll(() => server?.close());
afterEach(async () => {
  await receiver?.close();
  await server.instance.services.db.delete(webhookEndpoints);
});

const flush = () => server.instance.services.jobs.flush();

async function freshReceiver() {
  receiver = await startWebhookReceiver();
  return receiver;
}

/** The status the client's call failed with (it throws ApiException for any 4xx). */
async function failure(call: Promise<unknown>): Promise<{ code: number; body: unknown }> {
  try {
    await call;
  } catch (error) {
    if (error instanceof ApiException) return { code: error.code, body: error.body };
    throw error;
  }
  throw new Error("The call succeeded.");
}

function verify(request: ReceivedWebhook, secret: string): unknown {
  const now = vi.spyOn(Date, "now").mockReturnValue(server.clock.now());
  try {
    const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v)]));
    return new Webhook(secret).verify(request.body, headers);
  } finally {
    now.mockRestore();
  }
}

describe("POST /webhooks/svix-token", () => {
  it("answers a token and the base URL of the Svix-compatible API on this server", async () => {
    const { token, url } = await svixToken(project);
    expect(url).toBe(`${server.config.apiUrl}/svix`);
    expect(token).toMatch(/^lksvix_/);
  });

  it("is for admins only", async () => {
    for (const as of [project.client, project.server]) {
      const res = await server.request("/webhooks/svix-token", { method: "POST", as, body: {} });
      expectKnownError(res, "INSUFFICIENT_ACCESS_TYPE", 401);
    }
  });
});

describe("the Svix-compatible API", () => {
  it("has one application per project, named by its id", async () => {
    const app = await svix.application.get(project.id);
    expect(app).toMatchObject({ id: project.id, uid: project.id, name: project.id });
    const again = await svix.application.getOrCreate({ name: project.id, uid: project.id });
    expect(again.id).toBe(project.id);
  });

  it("creates, lists, reads, changes and deletes endpoints", async () => {
    const created = await svix.endpoint.create(project.id, {
      url: "https://example.com/hook",
      description: "orders",
      eventTypes: ["user.created"],
      metadata: { team: "a" },
    });
    expect(created.id).toMatch(/^ep_[0-9A-Za-z]{27}$/);
    expect(created).toMatchObject({ url: "https://example.com/hook", description: "orders", disabled: false, channels: null });
    expect(created.eventTypes).toEqual(["user.created"]);
    expect(created.createdAt).toBeInstanceOf(Date);

    const read = await svix.endpoint.get(project.id, created.id);
    expect(read).toEqual(created);

    const patched = await svix.endpoint.patch(project.id, created.id, { disabled: true, description: "paused" });
    expect(patched).toMatchObject({ disabled: true, description: "paused", url: "https://example.com/hook" });

    // A full update: what is left out goes back to its default.
    const replaced = await svix.endpoint.upsert(project.id, created.id, { url: "https://example.com/other" });
    expect(replaced).toMatchObject({ url: "https://example.com/other", description: "", disabled: false, eventTypes: null });

    const filtered = await svix.endpoint.upsert(project.id, created.id, { url: "https://example.com/other", eventTypes: ["team.created"] });
    expect(filtered.eventTypes).toEqual(["team.created"]);

    const more = [];
    for (let i = 0; i < 2; i++) more.push(await svix.endpoint.create(project.id, { url: `https://example.com/${i}` }));
    const first = await svix.endpoint.list(project.id, { limit: 2 });
    expect(first.data).toHaveLength(2);
    expect(first.done).toBe(false);
    const rest = await svix.endpoint.list(project.id, { limit: 2, iterator: first.iterator! });
    expect(rest.done).toBe(true);
    const ids = [...first.data, ...rest.data].map((endpoint) => endpoint.id);
    expect(ids.sort()).toEqual([created.id, ...more.map((endpoint) => endpoint.id)].sort());

    await svix.endpoint.delete(project.id, created.id);
    expect((await failure(svix.endpoint.get(project.id, created.id))).code).toBe(404);
  });

  it("creates an endpoint on a PUT by a new uid, and keeps uids unique", async () => {
    const byUid = await svix.endpoint.upsert(project.id, "orders-hook", { url: "https://example.com/orders" });
    expect(byUid).toMatchObject({ uid: "orders-hook", url: "https://example.com/orders" });
    expect((await svix.endpoint.get(project.id, "orders-hook")).id).toBe(byUid.id);
    const again = await svix.endpoint.upsert(project.id, "orders-hook", { url: "https://example.com/orders2", uid: "orders-hook" });
    expect(again).toMatchObject({ id: byUid.id, url: "https://example.com/orders2" });
    expect((await failure(svix.endpoint.create(project.id, { url: "https://example.com/x", uid: "orders-hook" }))).code).toBe(409);
    const second = await svix.endpoint.create(project.id, { url: "https://example.com/y", uid: "second" });
    expect((await failure(svix.endpoint.patch(project.id, second.id, { uid: "orders-hook" }))).code).toBe(409);
    expect((await failure(svix.endpoint.upsert(project.id, "ep_000000000000000000000000000", { url: "https://example.com/z" }))).code).toBe(
      404,
    );
  });

  it("answers the secret, rotates it (to a new one or the one given)", async () => {
    const endpoint = await svix.endpoint.create(project.id, { url: "https://example.com/hook" });
    const { key } = await svix.endpoint.getSecret(project.id, endpoint.id);
    expect(key).toMatch(/^whsec_/);
    await svix.endpoint.rotateSecret(project.id, endpoint.id, {});
    const rotated = (await svix.endpoint.getSecret(project.id, endpoint.id)).key;
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(key);
    const chosen = `whsec_${Buffer.alloc(24, 7).toString("base64")}`;
    await svix.endpoint.rotateSecret(project.id, endpoint.id, { key: chosen });
    expect((await svix.endpoint.getSecret(project.id, endpoint.id)).key).toBe(chosen);
  });

  it("refuses what is not valid with 422", async () => {
    expect((await failure(svix.endpoint.create(project.id, { url: "not a url" }))).code).toBe(422);
    const endpoint = await svix.endpoint.create(project.id, { url: "https://example.com/hook" });
    expect((await failure(svix.endpoint.rotateSecret(project.id, endpoint.id, { key: "short" }))).code).toBe(422);
  });

  it("sends a message, signed, to the endpoints that want it, and lists its attempts", async () => {
    await freshReceiver();
    const endpoint = await svix.endpoint.create(project.id, { url: receiver.url, eventTypes: ["invoice.paid"] });
    // Another type is not sent to it.
    await svix.message.create(project.id, { eventType: "invoice.voided", payload: { id: "in_0" } });
    const message = await svix.message.create(project.id, { eventType: "invoice.paid", payload: { id: "in_1" }, eventId: "evt-1" });
    expect(message.id).toMatch(/^msg_[0-9A-Za-z]{27}$/);
    await flush();
    expect(receiver.received).toHaveLength(1);
    const { key } = await svix.endpoint.getSecret(project.id, endpoint.id);
    expect(verify(receiver.received[0]!, key)).toEqual({ id: "in_1" });
    expect(receiver.received[0]!.headers["svix-id"]).toBe(message.id);

    // The wire as the dashboard reads it: exactly these fields.
    const raw = await fetch(`${base}/svix/api/v1/app/${project.id}/msg/${message.id}?with_content=true`, {
      headers: { authorization: `Bearer ${(await svixToken(project)).token}` },
    });
    expect(raw.status).toBe(200);
    expect(await raw.json()).toEqual({
      channels: null,
      eventId: "evt-1",
      eventType: "invoice.paid",
      id: message.id,
      payload: { id: "in_1" },
      timestamp: expect.any(String),
    });
    expect((await svix.message.get(project.id, message.id)).payload).toEqual({});
    expect((await svix.message.get(project.id, "evt-1", { withContent: true })).payload).toEqual({ id: "in_1" });
    // The same eventId again is a conflict.
    expect((await failure(svix.message.create(project.id, { eventType: "invoice.paid", payload: {}, eventId: "evt-1" }))).code).toBe(409);

    const listed = await svix.message.list(project.id, { withContent: true });
    expect(listed.data.map((m) => m.eventType).sort()).toEqual(["invoice.paid", "invoice.voided"]);

    const byEndpoint = await svix.messageAttempt.listByEndpoint(project.id, endpoint.id, { withMsg: true });
    expect(byEndpoint.data).toHaveLength(1);
    expect(byEndpoint.data[0]).toMatchObject({
      msgId: message.id,
      endpointId: endpoint.id,
      url: receiver.url,
      status: 0,
      statusText: "success",
      responseStatusCode: 204,
      triggerType: 0,
    });
    expect(byEndpoint.data[0]!.msg?.eventType).toBe("invoice.paid");
    const byMessage = await svix.messageAttempt.listByMsg(project.id, message.id);
    expect(byMessage.data.map((a) => a.id)).toEqual([byEndpoint.data[0]!.id]);
  });

  it("resends a message to an endpoint, as a manual attempt", async () => {
    await freshReceiver();
    const endpoint = await svix.endpoint.create(project.id, { url: receiver.url });
    const message = await svix.message.create(project.id, { eventType: "invoice.paid", payload: { n: 1 } });
    await flush();
    await svix.messageAttempt.resend(project.id, message.id, endpoint.id);
    await flush();
    expect(receiver.received.map((r) => r.body)).toEqual([`{"n":1}`, `{"n":1}`]);
    const attempts = await svix.messageAttempt.listByMsg(project.id, message.id);
    expect(attempts.data.map((a) => a.triggerType).sort()).toEqual([0, 1]);
  });

  it("recovers: resends each message since a time whose latest attempt failed", async () => {
    await freshReceiver();
    const endpoint = await svix.endpoint.create(project.id, { url: receiver.url });
    const since = server.clock.date();
    receiver.answer(500);
    const failed = await svix.message.create(project.id, { eventType: "invoice.paid", payload: { n: "failed" } });
    await flush();
    await svix.message.create(project.id, { eventType: "invoice.paid", payload: { n: "delivered" } });
    await flush();
    expect(receiver.received).toHaveLength(2);
    const failedAttempts = await svix.messageAttempt.listByEndpoint(project.id, endpoint.id, { status: 2 });
    expect(failedAttempts.data.map((a) => [a.msgId, a.responseStatusCode])).toEqual([[failed.id, 500]]);

    const task = await svix.endpoint.recover(project.id, endpoint.id, { since });
    expect(task.id).toMatch(/^qtask_/);
    expect(task.status).toBe("finished");
    await flush();
    // Only the failed one again.
    expect(receiver.received.map((r) => r.body)).toEqual([`{"n":"failed"}`, `{"n":"delivered"}`, `{"n":"failed"}`]);
    const latest = await svix.messageAttempt.listByMsg(project.id, failed.id);
    expect(latest.data.map((a) => a.status).sort()).toEqual([0, 2]);
    // Recovering again finds nothing failed.
    await svix.endpoint.recover(project.id, endpoint.id, { since });
    await flush();
    expect(receiver.received).toHaveLength(3);
  });

  it("reaches the token's project only", async () => {
    const mine = await svix.endpoint.create(project.id, { url: "https://example.com/mine" });
    const theirs = await otherSvix.endpoint.create(other.id, { url: "https://example.com/theirs" });
    expect((await failure(svix.application.get(other.id))).code).toBe(404);
    expect((await failure(svix.endpoint.list(other.id))).code).toBe(404);
    expect((await failure(svix.endpoint.get(other.id, theirs.id))).code).toBe(404);
    // Their endpoint named under my application is not there either.
    expect((await failure(svix.endpoint.get(project.id, theirs.id))).code).toBe(404);
    expect((await failure(svix.endpoint.delete(project.id, theirs.id))).code).toBe(404);
    expect((await failure(otherSvix.endpoint.getSecret(other.id, mine.id))).code).toBe(404);
    expect((await otherSvix.endpoint.list(other.id)).data.map((e) => e.id)).toEqual([theirs.id]);
    expect((await failure(svix.application.getOrCreate({ name: other.id, uid: other.id }))).code).toBe(404);
  });

  it("answers 401 without a valid token: missing, garbled, tampered with, expired", async () => {
    const url = `${base}/svix/api/v1/app/${project.id}/endpoint`;
    const missing = await fetch(url);
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({ code: "authentication_failed", detail: "Invalid token" });
    // Callable from a browser, as the API is: the client's own headers pass the preflight.
    expect(missing.headers.get("access-control-allow-origin")).toBe("*");
    const preflight = await fetch(url, { method: "OPTIONS" });
    expect(preflight.headers.get("access-control-allow-headers")).toContain("idempotency-key");
    expect((await failure(new Svix("garbled", { serverUrl: `${base}/svix` }).endpoint.list(project.id))).code).toBe(401);

    const { token } = await svixToken(project);
    const [payload, mac] = token.slice("lksvix_".length).split(".");
    const forged = `lksvix_${Buffer.from(JSON.stringify({ p: other.id, e: server.clock.now() + 60_000 })).toString("base64url")}.${mac}`;
    expect((await failure(new Svix(forged, { serverUrl: `${base}/svix` }).endpoint.list(other.id))).code).toBe(401);
    expect(payload).toBeTruthy();

    const client = new Svix(token, { serverUrl: `${base}/svix` });
    await server.clock.ahead(SVIX_TOKEN_LIFETIME_MILLIS + 1000, async () => {
      expect((await failure(client.endpoint.list(project.id))).code).toBe(401);
    });
    expect((await client.endpoint.list(project.id)).done).toBe(true);
  });
});

describe("POST /internal/send-test-webhook", () => {
  async function sendTest(endpointId: string, as = project.admin) {
    return server.request("/internal/send-test-webhook", { method: "POST", as, body: { endpoint_id: endpointId } });
  }

  it("sends stack.test to the endpoint now and answers success", async () => {
    await freshReceiver();
    const endpoint = await svix.endpoint.create(project.id, { url: receiver.url });
    const res = await sendTest(endpoint.id);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ success: true });
    const { key } = await svix.endpoint.getSecret(project.id, endpoint.id);
    expect(verify(receiver.received[0]!, key)).toEqual({
      type: "stack.test",
      data: { message: TEST_WEBHOOK_MESSAGE, endpointUrl: receiver.url },
    });
    // In the log like any other message, as a manual attempt.
    const attempts = await svix.messageAttempt.listByEndpoint(project.id, endpoint.id);
    expect(attempts.data.map((a) => [a.status, a.triggerType])).toEqual([[0, 1]]);
  });

  it("answers not found for an endpoint that is not the project's", async () => {
    expect((await sendTest("ep_000000000000000000000000000")).body).toEqual({ success: false, error_message: TEST_ENDPOINT_NOT_FOUND });
    const theirs = await otherSvix.endpoint.create(other.id, { url: "https://example.com/theirs" });
    expect((await sendTest(theirs.id)).body).toEqual({ success: false, error_message: TEST_ENDPOINT_NOT_FOUND });
    expect(TEST_ENDPOINT_NOT_FOUND).toBe("Endpoint not found. Make sure it still exists.");
  });

  it("answers the failure when the receiver fails or is not there", async () => {
    await freshReceiver();
    const endpoint = await svix.endpoint.create(project.id, { url: receiver.url });
    receiver.answer(500);
    expect((await sendTest(endpoint.id)).body).toEqual({ success: false, error_message: TEST_NOT_DELIVERED });
    const attempts = await svix.messageAttempt.listByEndpoint(project.id, endpoint.id);
    expect(attempts.data.map((a) => [a.status, a.responseStatusCode])).toEqual([[2, 500]]);
    // Nobody listening: what went wrong, in the log's words.
    const nobody = await svix.endpoint.create(project.id, { url: `http://127.0.0.1:${await freePort()}/hook` });
    expect((await sendTest(nobody.id)).body).toEqual({ success: false, error_message: "The endpoint refused the connection." });
  });

  it("is for admins only", async () => {
    expectKnownError(await sendTest("ep_000000000000000000000000000", project.server), "INSUFFICIENT_ACCESS_TYPE", 401);
  });
});

describe("paths", () => {
  it("are served with a trailing slash too, as clients of Svix's older specification send them", async () => {
    const headers = { authorization: `Bearer ${(await svixToken(project)).token}`, "content-type": "application/json" };
    const created = await fetch(`${base}/svix/api/v1/app/${project.id}/endpoint/`, {
      method: "POST",
      headers,
      body: JSON.stringify({ url: "https://example.com/slash" }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const read = await fetch(`${base}/svix/api/v1/app/${project.id}/endpoint/${id}/`, { headers });
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({ id, url: "https://example.com/slash" });
    const wrong = await fetch(`${base}/svix/api/v1/app/${project.id}/endpoint/${id}/secret/`, { method: "DELETE", headers });
    expect(wrong.status).toBe(405);
    expect((await fetch(`${base}/svix/api/v1/app/${project.id}/endpoint/${id}/`, { method: "DELETE", headers })).status).toBe(204);
  });
});

describe("a known path asked with another method", () => {
  it("answers 405 with the path's methods in Allow, in Svix's error shape", async () => {
    const authorization = `Bearer ${(await svixToken(project)).token}`;
    const cases: [string, string, string][] = [
      ["DELETE", `/app/${project.id}/msg/msg_000000000000000000000000000`, "GET"],
      ["POST", `/app/${project.id}/endpoint/ep_000000000000000000000000000`, "GET, PUT, PATCH, DELETE"],
      ["PATCH", `/app/${project.id}/endpoint`, "POST, GET"],
      ["GET", `/app/${project.id}/endpoint/ep_000000000000000000000000000/recover`, "POST"],
    ];
    for (const [method, path, allow] of cases) {
      const res = await fetch(`${base}/svix/api/v1${path}`, { method, headers: { authorization } });
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.get("allow")).toBe(allow);
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      expect(await res.json()).toEqual({ code: "method_not_allowed", detail: "Method not allowed" });
    }
    // The path's own methods still answer, and a path that is not the API's is still 404.
    expect((await fetch(`${base}/svix/api/v1/app/${project.id}/endpoint`, { headers: { authorization } })).status).toBe(200);
    expect((await fetch(`${base}/svix/api/v1/app/${project.id}/nothing`, { method: "DELETE", headers: { authorization } })).status).toBe(
      404,
    );
  });
});

describe("the mount", () => {
  it("keeps /svix paths from the dashboard", async () => {
    const res = await fetch(`${base}/svix/not-a-route`);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain("<html");
  });
});

describe("endpoints on private networks (LATCHKEY_WEBHOOKS_ALLOW_PRIVATE_URLS unset)", () => {
  it("are refused when made or moved there, when the URL itself shows it; public ones are taken", async () => {
    const strict = await serverWithProject({ server: { webhooksAllowPrivateUrls: false } });
    try {
      const strictBase = await strict.server.listen();
      const res = await strict.server.request("/webhooks/svix-token", { method: "POST", as: strict.project.admin, body: {} });
      const client = new Svix((res.body as { token: string }).token, { serverUrl: `${strictBase}/svix` });
      const appId = strict.project.id;
      for (const url of [
        "http://127.0.0.1:8080/hook",
        "http://10.1.2.3/hook",
        "http://[::1]/hook",
        "http://localhost:3000/hook",
        "http://api.localhost/hook",
      ]) {
        const refused = await failure(client.endpoint.create(appId, { url }));
        expect(refused.code, url).toBe(422);
        expect(refused.body, url).toMatchObject({
          detail: [
            {
              loc: ["body", "url"],
              msg: expect.stringMatching(/is on a private or local network, which this server does not send webhooks to\.$/),
            },
          ],
        });
      }
      const endpoint = await client.endpoint.create(appId, { url: "https://hooks.example.com/latchkey" });
      expect((await failure(client.endpoint.patch(appId, endpoint.id, { url: "http://192.168.1.10/hook" }))).code).toBe(422);
      expect((await failure(client.endpoint.upsert(appId, endpoint.id, { url: "http://127.0.0.1/hook" }))).code).toBe(422);
      expect((await client.endpoint.get(appId, endpoint.id)).url).toBe("https://hooks.example.com/latchkey");
      // Other changes of an endpoint leave its URL alone and are taken.
      expect((await client.endpoint.patch(appId, endpoint.id, { disabled: true })).disabled).toBe(true);
    } finally {
      await strict.server.close();
    }
  });
});
