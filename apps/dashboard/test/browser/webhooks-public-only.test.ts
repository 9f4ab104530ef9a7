/**
 * The Webhooks page of a server that sends to public addresses only: a loopback URL refused with the server's
 * reason beside the field, a page open past its token's lifetime, and the endpoints read a page at a time.
 */
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { ENDPOINTS_PAGE } from "../../src/pages/webhooks/webhooks-api.ts";
import { SVIX_TOKEN_LIFETIME_MILLIS } from "../../../../packages/server/src/capabilities/webhooks/domain/svix-token.ts";
import {
  expectHeading,
  ownerWithProject,
  screenshot,
  signInOwner,
  startDashboard,
  type Dashboard,
  type ProjectOwner,
} from "./dashboard.ts";
import { callWebhooksApi, fetchWebhooksApi } from "./webhooks-api.ts";

let dashboard: Dashboard;
let owner: ProjectOwner;
let page: Page;

const projectUrl = (path: string) => `${dashboard.url}/projects/${owner.id}/${path}`;
const card = (name: string) => page.getByRole("region", { name, exact: true });
const fetchSvix = (path: string) => fetchWebhooksApi(dashboard, owner, path);
const svix = (method: string, path: string, body?: unknown) => callWebhooksApi(dashboard, owner, method, path, body);

describe("the Webhooks page of a server that sends to public addresses only", () => {
  beforeAll(async () => {
    dashboard = await startDashboard({ config: { webhooksAllowPrivateUrls: false } });
    owner = await ownerWithProject(dashboard.url);
    page = await dashboard.openPage();
    await signInOwner(page, dashboard.url, owner.email);
  });
  afterAll(() => dashboard?.close());
  afterEach(() => dashboard.expectNoPageErrors());

  test("an endpoint on loopback is refused, with the server's reason beside the URL field", async () => {
    await page.goto(projectUrl("webhooks"));
    await expectHeading(page, "Webhooks");
    await page.getByRole("button", { name: "Add endpoint" }).click();
    const dialog = page.getByRole("dialog", { name: "Add endpoint" });
    const url = dialog.getByLabel("Endpoint URL");
    await url.fill("http://localhost:3000/webhooks");
    await dialog.getByRole("button", { name: "Add endpoint" }).click();
    const reason = dialog.getByText("The host localhost is on a private or local network, which this server does not send webhooks to.");
    await reason.waitFor();
    // Said beside the field: it is the field's description for screen readers.
    expect(await url.getAttribute("aria-invalid")).toBe("true");
    expect(await url.getAttribute("aria-describedby")).toContain(await reason.getAttribute("id"));
    await screenshot(page, "webhooks-private-url-refused");
    await url.fill("https://hooks.example.com/latchkey");
    await dialog.getByRole("button", { name: "Add endpoint" }).click();
    await expectHeading(page, "Webhook endpoint");
    expect((await (await fetchSvix("/endpoint")).json()).data).toHaveLength(1);
  });

  test("a page open past its token's lifetime asks for a new token and goes on", async () => {
    // Tokens given (a request the SDK first makes with an expired session answers 401 and is made again).
    const tokensGiven: number[] = [];
    page.on("response", (response) => {
      if (new URL(response.url()).pathname === "/api/v1/webhooks/svix-token" && response.ok()) tokensGiven.push(response.status());
    });
    dashboard.server.clock.advance(SVIX_TOKEN_LIFETIME_MILLIS + 60_000);
    const attempts = card("Attempts");
    await attempts.getByRole("button", { name: "Refresh" }).click();
    await expect.poll(() => tokensGiven).toEqual([201]);
    await attempts.getByText("Nothing has been sent to this endpoint yet.").waitFor();
    expect(await page.getByRole("alert").count()).toBe(0);
  });

  test("the endpoints show a page at a time, and Load more reads the next", async () => {
    // On public hosts this server may send to; no event is made, so none is sent.
    for (let batch = 0; batch < ENDPOINTS_PAGE; batch += 25)
      await Promise.all(Array.from({ length: 25 }, (_, n) => svix("POST", "/endpoint", { url: `https://hooks.example.com/${batch + n}` })));
    await page.goto(projectUrl("webhooks"));
    await expectHeading(page, "Webhooks");
    const links = card("Endpoints").getByRole("link");
    await expect.poll(() => links.count()).toBe(ENDPOINTS_PAGE);
    await card("Endpoints").getByRole("button", { name: "Load more" }).click();
    // And the one the test before added.
    await expect.poll(() => links.count()).toBe(ENDPOINTS_PAGE + 1);
    expect(await card("Endpoints").getByRole("button", { name: "Load more" }).count()).toBe(0);
  });
});
