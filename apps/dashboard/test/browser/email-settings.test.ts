/**
 * The e-mail settings page on a server without any SMTP server: a test send
 * through the shared server lands in the Outbox and the page leads there, and
 * the saved SMTP password never reaches the page (its field starts empty;
 * saving or a test send with it empty uses the saved one; typing replaces it).
 */
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect, test } from "vitest";
import { startSmtpPeer, type SmtpPeer } from "../../../../packages/server/test/smtp-peer.ts";
import { expectHeading, ownerWithProject, screenshot, signInOwner, startDashboard, uniqueEmail, type Dashboard } from "./dashboard.ts";

let dashboard: Dashboard;
let page: Page;
let made: Awaited<ReturnType<typeof ownerWithProject>>;
const saved = "saved-Smtp-Pa55word";
/** The project's own SMTP server, which takes mail only after a login with the saved password. */
let peer: SmtpPeer;

beforeAll(async () => {
  [dashboard, peer] = await Promise.all([startDashboard(), startSmtpPeer({ requireAuth: { username: "mailer", password: saved } })]);
  made = await ownerWithProject(dashboard.url);
  page = await dashboard.openPage();
  await signInOwner(page, dashboard.url, made.email);
});
afterAll(async () => {
  await dashboard?.close();
  await peer?.close();
});
afterEach(() => dashboard.expectNoPageErrors());

const projectUrl = (path: string) => `${dashboard.url}/projects/${made.id}/${path}`;

test("a test send through the shared server without SMTP lands in the Outbox, rendered, and the page leads there", async () => {
  await page.goto(projectUrl("emails"));
  await expectHeading(page, "E-mail settings");
  expect(await page.getByLabel("The shared server").isChecked()).toBe(true);
  const to = uniqueEmail("shared-test");
  await page.getByLabel("Send the test to").fill(to);
  await page.getByRole("button", { name: "Send test e-mail" }).click();
  const said = page.getByRole("status").filter({ hasText: `the test e-mail to ${to} was kept in the Outbox instead of being delivered` });
  await expect.poll(() => said.count(), { timeout: 15_000 }).toBe(1);
  await screenshot(page, "email-settings-test-outbox");
  await said.getByRole("link", { name: "Open the Outbox" }).click();
  await expectHeading(page, "Outbox");
  const subject = "Test e-mail";
  const frame = page.frameLocator(`iframe[title="E-mail: ${subject}"]`);
  await expect.poll(() => frame.locator("body").innerText(), { timeout: 15_000 }).toContain("This is a test e-mail: the project");
  expect(await page.getByRole("navigation", { name: "Outbox mail" }).getByText(subject).count()).toBe(1);
});

test("the saved SMTP password is never in the page; a test send or a save with the field empty uses it, typing replaces it", async () => {
  const smtp = { host: "127.0.0.1", port: peer.port, username: "mailer", senderName: "Shop", senderEmail: "shop@example.com" };
  await made.project.update({ config: { emailConfig: { type: "standard", ...smtp, password: saved } } });
  await page.goto(projectUrl("emails"));
  await expectHeading(page, "E-mail settings");
  const password = page.getByLabel("Password", { exact: true });
  await expect.poll(() => password.getAttribute("placeholder")).toBe("A password is saved");
  expect(await password.inputValue()).toBe("");
  expect(await page.content()).not.toContain(saved);

  const to = uniqueEmail("own-test");
  await page.getByLabel("Send the test to").fill(to);
  await page.getByRole("button", { name: "Send test e-mail" }).click();
  await expect.poll(() => page.getByText(`The test e-mail was sent to ${to}.`).count(), { timeout: 15_000 }).toBe(1);
  await peer.waitFor((m) => JSON.stringify(m.to).includes(to));
  expect(peer.logins).toContain("mailer");

  // Another host (the same peer by another name): the saved password is not sent there, so the login fails.
  const loginsBefore = peer.logins.length;
  await page.getByLabel("Host", { exact: true }).fill("localhost");
  await expect.poll(() => password.getAttribute("placeholder")).toBeNull();
  await page.getByRole("button", { name: "Send test e-mail" }).click();
  await expect.poll(() => page.getByText("The SMTP server did not take it:").count(), { timeout: 15_000 }).toBe(1);
  expect(peer.logins).toHaveLength(loginsBefore);
  await page.getByLabel("Host", { exact: true }).fill(smtp.host);
  await expect.poll(() => password.getAttribute("placeholder")).toBe("A password is saved");

  await page.getByLabel("Sender name", { exact: true }).fill("Shop renamed");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect.poll(() => page.getByText("E-mail settings saved.").count()).toBe(1);
  expect((await made.project.app.getProject()).config.emailConfig).toEqual({
    type: "standard",
    ...smtp,
    senderName: "Shop renamed",
    password: saved,
  });
  // Written as the config's e-mail server key (the config API shows its password only masked).
  expect((await made.project.getConfigOverride("environment"))["emails.server"]).toEqual({
    isShared: false,
    provider: "smtp",
    ...smtp,
    senderName: "Shop renamed",
    password: "********word",
  });
  expect(await password.inputValue()).toBe("");
  expect(await page.content()).not.toContain(saved);

  await password.fill("a-new-password");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect
    .poll(async () => {
      const config = (await made.project.app.getProject()).config.emailConfig;
      return config.type === "standard" ? config.password : null;
    })
    .toBe("a-new-password");
  await expect.poll(() => password.inputValue()).toBe("");
});
