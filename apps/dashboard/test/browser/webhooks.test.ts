/**
 * The Webhooks page, against a real server and a real receiver on loopback: an endpoint added (a URL the server
 * refuses is said beside the field), its secret revealed and rotated, a test event that arrives signed with a
 * secret the receiver can check, the attempts with their status codes in the endpoint's log and the message log,
 * a failed attempt resent (its new attempt showing without a Refresh), the event filter edited, the lists read a
 * page at a time, a long answer cut short, the endpoint disabled and deleted (a server that sends to public addresses only:
 * webhooks-public-only.test.ts).
 */
import { verifyWebhook } from "@latchkey/js";
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import { LOG_PAGE, RESPONSE_PREVIEW_CHARS } from "../../src/pages/webhooks/webhooks-api.ts";
import { callWebhooksApi, fetchWebhooksApi } from "./webhooks-api.ts";
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from "../../../../packages/server/test/webhook-receiver.ts";
import { dashboardWithOwner, expectHeading, screenshot, type Dashboard, type ProjectOwner } from "./dashboard.ts";

let dashboard: Dashboard;
let owner: ProjectOwner;
let page: Page;
let receiver: WebhookReceiver;
/** The endpoint's page, once added. */
let endpointUrl: string;

const projectUrl = (path: string) => `${dashboard.url}/projects/${owner.id}/${path}`;
const card = (name: string) => page.getByRole("region", { name, exact: true });
const attemptRows = () => card("Attempts").getByRole("row");
/** The rows of `table` whose receiver answered `code`. */
const answered = (rows: ReturnType<Page["getByRole"]>, code: number) => rows.filter({ has: page.getByText(String(code), { exact: true }) });

/** Checks the delivery's signature as a receiver would, at the server's time (its clock is the test's). */
function verified(request: ReceivedWebhook, secret: string) {
  const now = vi.spyOn(Date, "now").mockReturnValue(dashboard.server.clock.now());
  try {
    const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v)]));
    return verifyWebhook(request.body, headers, secret);
  } finally {
    now.mockRestore();
  }
}

async function revealedSecret(): Promise<string> {
  const field = card("Signing secret").getByLabel("Secret", { exact: true });
  await field.waitFor();
  return field.inputValue();
}

describe("the Webhooks page", () => {
  beforeAll(async () => {
    ({ dashboard, owner, page } = await dashboardWithOwner());
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await dashboard?.close();
  });
  afterEach(() => dashboard.expectNoPageErrors());

  test("starts empty, with the way to add an endpoint", async () => {
    await page.goto(projectUrl("webhooks"));
    await expectHeading(page, "Webhooks");
    await card("Endpoints").getByText("No endpoints yet.").waitFor();
    await card("Message log").getByText("No events yet.").waitFor();
    await screenshot(page, "webhooks-empty");
  });

  test("a URL the server refuses is said beside the URL field, and nothing is added", async () => {
    await page.getByRole("button", { name: "Add endpoint" }).click();
    const dialog = page.getByRole("dialog", { name: "Add endpoint" });
    const url = dialog.getByLabel("Endpoint URL");
    await url.fill("ftp://files.example.com/hooks");
    await dialog.getByRole("button", { name: "Add endpoint" }).click();
    await dialog.getByText("The URL must be http or https").waitFor();
    expect(await url.getAttribute("aria-invalid")).toBe("true");
    await url.fill("not a url");
    await dialog.getByRole("button", { name: "Add endpoint" }).click();
    await expect.poll(() => dialog.locator(".field-error").first().textContent()).not.toContain("http or https");
    expect(await url.getAttribute("aria-invalid")).toBe("true");
    await screenshot(page, "webhooks-add-refused");
    await page.keyboard.press("Escape");
    const { data } = await (await fetchSvix("/endpoint")).json();
    expect(data).toEqual([]);
  });

  test("an endpoint is added for all events and opens on its page", async () => {
    await page.getByRole("button", { name: "Add endpoint" }).click();
    const dialog = page.getByRole("dialog", { name: "Add endpoint" });
    await dialog.getByLabel("Endpoint URL").fill(receiver.url);
    await dialog.getByLabel("Description").fill("Loopback receiver");
    await dialog.getByRole("button", { name: "Add endpoint" }).click();
    await expectHeading(page, "Loopback receiver");
    endpointUrl = page.url();
    expect(endpointUrl).toMatch(/\/webhooks\/ep_/);
    await page.getByText("All events").first().waitFor();
    await page.getByRole("link", { name: "Webhooks", exact: true }).first().click();
    await expectHeading(page, "Webhooks");
    await card("Endpoints").getByRole("link", { name: receiver.url }).waitFor();
    await card("Endpoints").getByText("Enabled", { exact: true }).waitFor();
    await screenshot(page, "webhooks-list");
  });

  test("the secret is revealed, rotated after a confirmation, and a test event arrives signed with it", async () => {
    await page.goto(endpointUrl);
    await expectHeading(page, "Loopback receiver");
    await card("Signing secret").getByRole("button", { name: "Reveal secret" }).click();
    const first = await revealedSecret();
    expect(first).toMatch(/^whsec_/);
    await card("Signing secret").getByRole("button", { name: "Copy" }).waitFor();

    await card("Signing secret").getByRole("button", { name: "Rotate secret" }).click();
    const confirm = page.getByRole("dialog", { name: "Rotate this endpoint's secret?" });
    await confirm.getByText("for 24 hours").waitFor();
    await screenshot(page, "webhooks-rotate-confirm");
    await confirm.getByRole("button", { name: "Rotate secret" }).click();
    await card("Signing secret").getByText("The secret was rotated.").waitFor();
    await expect.poll(revealedSecret).not.toBe(first);
    const second = await revealedSecret();

    await card("Send a test event").getByRole("button", { name: "Send test event" }).click();
    await card("Send a test event").getByText("The endpoint took the test event.").waitFor();
    const delivery = await receiver.request(1);
    expect(verified(delivery, second)).toMatchObject({ type: "stack.test", data: { endpointUrl: receiver.url } });
    // The old secret still signs for a day: a receiver not yet updated verifies it too.
    expect(verified(delivery, first)).toMatchObject({ type: "stack.test" });
    await expect.poll(() => answered(attemptRows(), 204).count()).toBe(1);
    // A 204 has no body: the log says so.
    await attemptRows().filter({ hasText: "stack.test" }).getByText("(empty)").waitFor();
    await screenshot(page, "webhooks-endpoint");
  });

  test("a failed attempt shows its status code and answer, and Resend delivers the message again", async () => {
    receiver.answer(500);
    await card("Send a test event").getByRole("button", { name: "Send test event" }).click();
    await card("Send a test event")
      .getByText(/did not take the test event: Webhook not delivered/)
      .waitFor();
    await receiver.request(2);
    const failed = answered(attemptRows(), 500);
    await expect.poll(() => failed.count()).toBe(1);
    await failed.getByText("answer 2").waitFor();

    await failed.getByRole("button", { name: /^Resend stack\.test/ }).click();
    const resent = await receiver.request(3);
    expect(JSON.parse(resent.body)).toMatchObject({ type: "stack.test" });
    // The job runner makes the new attempt after the click's own reload: the page reads again until it shows.
    await answered(attemptRows(), 204).nth(1).waitFor();
    expect(await answered(attemptRows(), 500).count()).toBe(1);
    await screenshot(page, "webhooks-resent");
  });

  test("the message log lists each event, and its attempts with their status codes", async () => {
    await page.goto(projectUrl("webhooks"));
    await expectHeading(page, "Webhooks");
    const messages = card("Message log").getByRole("row").filter({ hasText: "stack.test" });
    await expect.poll(() => messages.count()).toBe(2);
    // Both opened: ids sort by the second they were made in (domain/ids.ts), and these two share theirs, so either may list first.
    for (const row of await messages.all()) await row.getByRole("button", { name: /^Attempts of stack\.test/ }).click();
    const attemptTables = card("Message log").getByRole("table", { name: /^Attempts of msg_/ });
    await expect.poll(() => attemptTables.count()).toBe(2);
    const attempts = attemptTables.getByRole("row").filter({ hasText: receiver.url });
    await expect.poll(() => attempts.count()).toBe(3);
    // The first message's one attempt; the second's failed one and its resend.
    expect(await answered(attempts, 204).count()).toBe(2);
    expect(await answered(attempts, 500).count()).toBe(1);
    expect(
      await attemptTables
        .filter({ has: page.getByText("500", { exact: true }) })
        .getByRole("row")
        .count(),
    ).toBe(3);
    await screenshot(page, "webhooks-message-log");

    // Resent from the log, the new attempt joins its message's attempts without a Refresh.
    const failedMessage = attemptTables.filter({ has: page.getByText("500", { exact: true }) });
    await answered(failedMessage.getByRole("row"), 500)
      .getByRole("button", { name: /^Resend msg_/ })
      .click();
    await receiver.request(4);
    await answered(failedMessage.getByRole("row"), 204).nth(1).waitFor();
  });

  test("the event filter is edited, and the endpoint disabled and enabled again", async () => {
    await page.goto(endpointUrl);
    await expectHeading(page, "Loopback receiver");
    await card("Endpoint").getByRole("button", { name: "Edit" }).click();
    await card("Endpoint").getByRole("switch", { name: "All events" }).click();
    await card("Endpoint").getByRole("checkbox", { name: "user.created" }).check();
    await card("Endpoint").getByRole("checkbox", { name: "team.created" }).check();
    await screenshot(page, "webhooks-edit");
    await card("Endpoint").getByRole("button", { name: "Save endpoint" }).click();
    await card("Endpoint").getByText("user.created, team.created").waitFor();
    const id = endpointUrl.split("/").at(-1)!;
    expect((await (await fetchSvix(`/endpoint/${id}`)).json()).filterTypes).toEqual(["user.created", "team.created"]);

    const enabled = card("Endpoint").getByRole("switch", { name: "Enabled" });
    await enabled.click();
    await expect.poll(() => enabled.isChecked()).toBe(false);
    await page.getByText("Disabled", { exact: true }).waitFor();
    expect((await (await fetchSvix(`/endpoint/${id}`)).json()).disabled).toBe(true);
    // Disabled, it is sent nothing: a new user makes a message with no attempt at it.
    await owner.project.app.createUser({ primaryEmail: `hooks-${Date.now()}@example.com` });
    await dashboard.server.instance.services.jobs.flush();
    expect(receiver.received).toHaveLength(4);

    await enabled.click();
    await expect.poll(() => enabled.isChecked()).toBe(true);
    expect((await (await fetchSvix(`/endpoint/${id}`)).json()).disabled).toBe(false);
  });

  test("an answer body longer than the log shows is cut short there, and whole in its title", async () => {
    const body = "The receiver says more than the log shows. ".repeat(10);
    expect(body.length).toBeGreaterThan(RESPONSE_PREVIEW_CHARS);
    receiver.answer({ status: 200, body });
    await page.goto(endpointUrl);
    await expectHeading(page, "Loopback receiver");
    await card("Send a test event").getByRole("button", { name: "Send test event" }).click();
    await card("Send a test event").getByText("The endpoint took the test event.").waitFor();
    const response = answered(attemptRows(), 200).locator("code");
    await response.waitFor();
    expect(await response.textContent()).toBe(`${body.slice(0, RESPONSE_PREVIEW_CHARS)}…`);
    expect(await response.getAttribute("title")).toBe(body);
    await screenshot(page, "webhooks-long-answer");
  });

  test("the message log and the attempt lists show a page at a time, and Load more reads the next", async () => {
    // Events no endpoint wants (the filter is user.created and team.created now): the log grows, nothing is sent.
    await Promise.all(Array.from({ length: LOG_PAGE }, (_, n) => svix("POST", "/msg", { eventType: "invoice.paid", payload: { n } })));
    // One message resent until it has more attempts than a page, in its own list and on the endpoint's page.
    const id = endpointUrl.split("/").at(-1)!;
    const { data: tests } = await (await svix("GET", "/msg?event_types=stack.test")).json();
    const resentId: string = tests[0].id;
    const deliveries = receiver.received.length + LOG_PAGE;
    for (let n = 0; n < LOG_PAGE; n++) await svix("POST", `/msg/${resentId}/endpoint/${id}/resend`, {});
    await receiver.request(deliveries);
    await dashboard.server.instance.services.jobs.flush();
    const total = async (path: string) => (await (await svix("GET", `${path}?limit=250`)).json()).data.length as number;
    const [messages, resentAttempts, endpointAttempts] = [
      await total("/msg"),
      await total(`/attempt/msg/${resentId}`),
      await total(`/attempt/endpoint/${id}`),
    ];
    expect(messages).toBeGreaterThan(LOG_PAGE);
    expect(resentAttempts).toBeGreaterThan(LOG_PAGE);

    await page.goto(projectUrl("webhooks"));
    await expectHeading(page, "Webhooks");
    const log = card("Message log");
    const messageRows = log.getByRole("button", { name: /^Attempts of / });
    await expect.poll(() => messageRows.count()).toBe(LOG_PAGE);
    await log.getByRole("button", { name: "Load more" }).click();
    await expect.poll(() => messageRows.count()).toBe(messages);
    // The log read to its end: nothing more to load.
    expect(await log.getByRole("button", { name: "Load more" }).count()).toBe(0);

    await log.getByRole("button", { name: `Attempts of stack.test ${resentId}` }).click();
    const resentRows = log
      .getByRole("table", { name: `Attempts of ${resentId}` })
      .getByRole("row")
      .filter({ hasText: receiver.url });
    await expect.poll(() => resentRows.count()).toBe(LOG_PAGE);
    await log.getByRole("button", { name: "Load more" }).click();
    await expect.poll(() => resentRows.count()).toBe(resentAttempts);
    expect(await log.getByRole("button", { name: "Load more" }).count()).toBe(0);
    await screenshot(page, "webhooks-load-more");

    await page.goto(endpointUrl);
    await expectHeading(page, "Loopback receiver");
    const rows = attemptRows().filter({ hasText: "stack.test" });
    await expect.poll(() => rows.count()).toBe(LOG_PAGE);
    await card("Attempts").getByRole("button", { name: "Load more" }).click();
    await expect.poll(() => rows.count()).toBe(endpointAttempts);
    expect(await card("Attempts").getByRole("button", { name: "Load more" }).count()).toBe(0);
  });

  test("the endpoint is deleted after a confirmation; its page then says it is not found", async () => {
    await page.goto(endpointUrl);
    await expectHeading(page, "Loopback receiver");
    await card("Delete endpoint").getByRole("button", { name: "Delete endpoint" }).click();
    await page.getByRole("dialog", { name: "Delete this endpoint?" }).getByRole("button", { name: "Delete endpoint" }).click();
    await expectHeading(page, "Webhooks");
    await card("Endpoints").getByText("No endpoints yet.").waitFor();
    await page.goto(endpointUrl);
    await expectHeading(page, "Endpoint not found");
    await screenshot(page, "webhooks-endpoint-not-found");
  });
});

const fetchSvix = (path: string) => fetchWebhooksApi(dashboard, owner, path);
const svix = (method: string, path: string, body?: unknown) => callWebhooksApi(dashboard, owner, method, path, body);
