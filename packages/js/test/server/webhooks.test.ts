/**
 * Webhooks through the admin app: the Svix-compatible API reached with `getSvixToken()` and the `svix` client,
 * a test event sent with `sendTestWebhook` and verified at the receiver with `verifyWebhook`, and the error
 * Result for an endpoint that is gone.
 */
import { Svix } from "svix";
import { afterAll, beforeAll, expect, it } from "vitest";
import { verifyWebhook } from "../../src/index.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../../../server/test/webhook-receiver.ts";
import { type SdkProject, startServerWithProject } from "./fixtures.ts";
import type { TestServer } from "./support.ts";

let server: TestServer;
let baseUrl: string;
let project: SdkProject;
let receiver: WebhookReceiver;

beforeAll(async () => {
  ({ server, baseUrl, project } = await startServerWithProject());
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await server?.close();
});

it("manages endpoints with the svix client, sends a test event and verifies it at the receiver", async () => {
  const admin = project.project.app;
  const { token, url } = await admin.getSvixToken();
  // The test server's configured address is not the port it listens on here: the same path, on that port.
  const svix = new Svix(token, { serverUrl: new URL(new URL(url).pathname, baseUrl).href });
  const endpoint = await svix.endpoint.create(project.id, { url: receiver.url, description: "app" });
  const { key } = await svix.endpoint.getSecret(project.id, endpoint.id);

  expect(await admin.sendTestWebhook({ endpointId: endpoint.id })).toEqual({ status: "ok", data: undefined });
  const delivery = await receiver.request(1);
  const event = verifyWebhook(delivery.body, delivery.headers, key);
  expect(event).toEqual({ type: "stack.test", data: { message: expect.any(String), endpointUrl: receiver.url } });

  await svix.endpoint.delete(project.id, endpoint.id);
  expect(await admin.sendTestWebhook({ endpointId: endpoint.id })).toEqual({
    status: "error",
    error: { errorMessage: "Endpoint not found. Make sure it still exists." },
  });
});
